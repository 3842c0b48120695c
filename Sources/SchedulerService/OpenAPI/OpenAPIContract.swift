/// The HTTP API as an OpenAPI 3.1 document: the one description of every endpoint, served at `/openapi.yaml` and
/// `/openapi.json`, printed by `scheduler openapi` and committed as docs/openapi.yaml (`scripts/generate-manual`
/// writes it; a test compares). `OpenAPIContractTests` fails when the server registers a route the document lacks;
/// schemathesis (`.ci/run`) checks every answer against it.
public enum OpenAPIContract {
    /// The document, as YAML.
    public static let yaml = #"""
openapi: 3.1.0
info:
  title: reindex-scheduler
  version: "1"
  summary: Search a feature-flagged index, open its results, and operate the scheduler that fills it.
  description: |
    The HTTP API of `scheduler run`. The endpoints that reveal items (search, items, thumbnails, opens) need no
    credential while `search.access` is `public`, the default; with `keys`, a search key or a tenant token as a
    bearer token (docs/security.md). Health, metrics and status need none; the admin endpoints need the admin token
    as a bearer token. Query strings are read as HTML forms
    write them (`+` is a space, `%2B` a plus). Every error is `{"error": "what is wrong; what to do"}`; bad input
    is a 4xx, never a 500. A 503 means the store did not answer in time (`service.requestDeadline`, default 3 s) or
    failed: retry after the seconds `Retry-After` gives. Every `GET` answers `HEAD` too. The endpoints that reveal
    items (search, items, thumbnails, opens) answer the pages of the origins `search.cors.origins` lists, with
    `Access-Control-Allow-Origin` naming that origin; nothing else answers another origin. The status page and the
    console (`/`, `/units/…`, `/signin`, `/console/…`: HTML for people) are not part of this contract.
  license:
    name: see the repository
servers:
  - url: http://127.0.0.1:8080
    description: the default `service.listen`
tags:
  - name: search
    description: what end users' clients call
  - name: operations
    description: health, metrics and the state of every unit
  - name: admin
    description: actions on sources and domains; the admin token is needed
paths:
  /search:
    get:
      tags: [search]
      operationId: search
      summary: Search the index as the user types
      description: Every word matches as a prefix, typos are forgiven, synonyms found; hits in the order of the ranking rules (docs/search.md).
      parameters:
        - name: q
          in: query
          required: true
          description: The text typed. Its first 16 distinct words are used; text without a word finds nothing.
          schema: { type: string, minLength: 1 }
          example: livraison
        - name: domain
          in: query
          description: Only items of this domain and the domains under it.
          schema: { type: string }
          example: com.shop.help
        - name: type
          in: query
          description: Only items of this content type.
          schema: { type: string }
        - name: version
          in: query
          description: "The documentation version to search, up to 64 bytes (items carry theirs): `*` for every version. Without it, the current version of each versioned source and every item without a version."
          schema: { type: string, minLength: 1, pattern: "^[^\\x00-\\x1f\\x7f-\\x9f]+$" }
          example: v3.6
        - name: limit
          in: query
          schema: { type: integer, minimum: 1, maximum: 1000, default: 20 }
        - name: offset
          in: query
          schema: { type: integer, minimum: 0, maximum: 10000, default: 0 }
        - name: facets
          in: query
          description: Comma-separated facets to count over every match.
          schema: { type: string, pattern: "^(domain|domainTree|type|version)(,(domain|domainTree|type|version))*$" }
          example: domain,type
        - name: sort
          in: query
          schema: { type: string, enum: [relevance, newest], default: relevance }
        - name: distinct
          in: query
          description: One hit a page (sections of a page grouped under it).
          schema: { type: string, enum: [page] }
      security: [{}, { searchKey: [] }]
      responses:
        "200":
          description: The hits of the page asked for, and how many match.
          content:
            application/json:
              schema: { $ref: "#/components/schemas/SearchResults" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "429": { $ref: "#/components/responses/TooManyRequests" }
        "503": { $ref: "#/components/responses/Unavailable" }
    options:
      tags: [search]
      operationId: searchPreflight
      summary: The browser's preflight for a page of another origin
      description: A page of an origin `search.cors.origins` lists may call this endpoint with an `Authorization` header.
      responses:
        "204": { $ref: "#/components/responses/Preflight" }
  /items/{id}:
    get:
      tags: [search]
      operationId: getItem
      summary: One live item
      parameters:
        - $ref: "#/components/parameters/ItemIdentifier"
      security: [{}, { searchKey: [] }]
      responses:
        "200":
          description: The item, every field present (`null` when absent).
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Item" }
        "404": { $ref: "#/components/responses/NotFound" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "503": { $ref: "#/components/responses/Unavailable" }
    options:
      tags: [search]
      operationId: getItemPreflight
      parameters:
        - $ref: "#/components/parameters/ItemIdentifier"
      summary: The browser's preflight for a page of another origin
      description: A page of an origin `search.cors.origins` lists may call this endpoint with an `Authorization` header.
      responses:
        "204": { $ref: "#/components/responses/Preflight" }
  /items/{id}/thumbnail:
    get:
      tags: [search]
      operationId: getThumbnail
      summary: The item's stored thumbnail
      parameters:
        - $ref: "#/components/parameters/ItemIdentifier"
        - name: token
          in: query
          description: With `search.access` `keys`, a tenant token, for a link or an image that cannot send a header (never a search key).
          schema: { type: string }
        - name: If-None-Match
          in: header
          schema: { type: string }
      security: [{}, { searchKey: [] }]
      responses:
        "200":
          description: The image, as the type its bytes are, with a strong `ETag`.
          headers:
            ETag: { schema: { type: string } }
          content:
            image/png: { schema: { type: string, contentMediaType: image/png } }
            image/jpeg: { schema: { type: string, contentMediaType: image/jpeg } }
            image/gif: { schema: { type: string, contentMediaType: image/gif } }
            image/webp: { schema: { type: string, contentMediaType: image/webp } }
        "304":
          description: The client's copy (`If-None-Match`) is current.
        "404": { $ref: "#/components/responses/NotFound" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "503": { $ref: "#/components/responses/Unavailable" }
    options:
      tags: [search]
      operationId: getThumbnailPreflight
      parameters:
        - $ref: "#/components/parameters/ItemIdentifier"
      summary: The browser's preflight for a page of another origin
      description: A page of an origin `search.cors.origins` lists may call this endpoint with an `Authorization` header.
      responses:
        "204": { $ref: "#/components/responses/Preflight" }
  /open/{id}:
    get:
      tags: [search]
      operationId: openItem
      summary: Open a result, counting the open
      description: Redirects to the item's `contentURL` when its scheme is one `service.openSchemes` allows; counts one open per client, item and hour.
      parameters:
        - $ref: "#/components/parameters/ItemIdentifier"
        - name: token
          in: query
          description: With `search.access` `keys`, a tenant token, for a link or an image that cannot send a header (never a search key).
          schema: { type: string }
        - name: q
          in: query
          description: The query the result was found with, counted with the open.
          schema: { type: string }
      security: [{}, { searchKey: [] }]
      responses:
        "302":
          description: To the item's link.
          headers:
            Location: { schema: { type: string } }
        "404": { $ref: "#/components/responses/NotFound" }
        "429": { $ref: "#/components/responses/TooManyRequests" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "503": { $ref: "#/components/responses/Unavailable" }
    options:
      tags: [search]
      operationId: openItemPreflight
      parameters:
        - $ref: "#/components/parameters/ItemIdentifier"
      summary: The browser's preflight for a page of another origin
      description: A page of an origin `search.cors.origins` lists may call this endpoint with an `Authorization` header.
      responses:
        "204": { $ref: "#/components/responses/Preflight" }
  /search-box.js:
    get:
      tags: [search]
      operationId: searchBoxScript
      summary: The search box, a custom element for any page
      description: 'Defines `<scheduler-search endpoint="…" token="…">`: results as you type, highlights, thumbnails, sections under their page, keyboard navigation, an ARIA combobox, opens counted (docs/search-box.md).'
      responses:
        "200":
          description: The script.
          content:
            text/javascript:
              schema: { type: string }
  /healthz:
    get:
      tags: [operations]
      operationId: health
      summary: Whether the service can serve
      responses:
        "200":
          description: The loop runs, the database answers, the last pass did not fail as a whole.
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Health" }
        "503":
          description: Something is wrong; `problem` says what.
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Health" }
  /readyz:
    get:
      tags: [operations]
      operationId: readiness
      summary: Whether the service should be sent searches
      description: 'Whether the database answers; on a replica of a PostgreSQL store, whether its search copy is not about to be, or being, fetched from another replica at start (seconds; 30 minutes at most): searches would go to PostgreSQL meanwhile, slower; and whether the search postings (the SQLite index''s, a search copy''s) are held: while they are read from their saved file or built at start (under a second to a minute a million items), searches read every row, far slower. A copy made from the store itself, no replica having one, does not hold readiness back; nor do the passes (`/healthz` says how they go).'
      responses:
        "200":
          description: Ready to be sent searches.
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Health" }
        "503":
          description: Not ready; `problem` says why.
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Health" }
  /metrics:
    get:
      tags: [operations]
      operationId: metrics
      summary: Prometheus metrics
      responses:
        "200":
          description: Prometheus text format 0.0.4; every family described.
          content:
            text/plain:
              schema: { type: string }
  /status:
    get:
      tags: [operations]
      operationId: status
      summary: Every unit's gate, state and next due, the configuration's problems, pending purges
      responses:
        "200":
          description: The JSON of `scheduler status --json`.
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Status" }
        "503": { $ref: "#/components/responses/Unavailable" }
  /analytics:
    get:
      tags: [admin]
      operationId: analytics
      summary: What people searched for and opened
      security: [{ adminToken: [] }]
      parameters:
        - name: since
          in: query
          description: A duration of a day or more.
          schema: { type: string, default: 30d }
          example: 7d
        - name: limit
          in: query
          schema: { type: integer, minimum: 1, maximum: 1000, default: 20 }
      responses:
        "200":
          description: The JSON of `scheduler analytics --json`.
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Analytics" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "403": { $ref: "#/components/responses/Forbidden" }
        "429": { $ref: "#/components/responses/TooManyRequests" }
        "503": { $ref: "#/components/responses/Unavailable" }
  /search-copy:
    get:
      tags: [admin]
      operationId: searchCopy
      summary: This replica's search copy, for a new replica to start from
      description: 'What a new replica of a PostgreSQL store fetches instead of reading every item from PostgreSQL: a magic line (`SCHEDULER-SEARCH-COPY/2`; a replica also accepts an earlier release''s `/1`), the copy''s SQLite file and its saved postings, each after its length (8 bytes, big-endian), then an HMAC-SHA-256 of everything before, keyed by the admin token and the request''s nonce. Taken from one read transaction; its items include those only some may find. The bearer is not the admin token but a credential the replicas derive from it (docs/operating.md, "Several replicas").'
      security: [{ adminToken: [] }]
      parameters:
        - name: Search-Copy-Nonce
          in: header
          required: true
          description: 32 lowercase hexadecimal digits, new for each request.
          schema: { type: string, pattern: "^[0-9a-f]{32}$" }
      responses:
        "200":
          description: The copy.
          content:
            application/octet-stream:
              schema: { type: string, format: binary }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "403": { $ref: "#/components/responses/Forbidden" }
        "429": { $ref: "#/components/responses/TooManyRequests" }
        "503": { $ref: "#/components/responses/Unavailable" }
  /sources/{name}/reindex:
    post:
      tags: [admin]
      operationId: reindexSource
      summary: Queue a forced run of every unit of the source
      security: [{ adminToken: [] }]
      parameters:
        - $ref: "#/components/parameters/SourceName"
        - name: mode
          in: query
          description: "`incremental` runs an incremental sync, under the delete guard as a scheduled one."
          schema: { type: string, enum: [full, incremental], default: full }
      responses:
        "202":
          description: Queued; the next pass runs it.
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Queued" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "403": { $ref: "#/components/responses/Forbidden" }
        "404": { $ref: "#/components/responses/NotFound" }
        "409": { $ref: "#/components/responses/Conflict" }
        "429": { $ref: "#/components/responses/TooManyRequests" }
        "503": { $ref: "#/components/responses/Unavailable" }
  /sources/{name}/pause:
    post:
      tags: [admin]
      operationId: pauseSource
      summary: Pause a source on every replica
      security: [{ adminToken: [] }]
      parameters:
        - $ref: "#/components/parameters/SourceName"
      responses:
        "200":
          description: Paused (`changed` is false when it already was).
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Pause" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "403": { $ref: "#/components/responses/Forbidden" }
        "404": { $ref: "#/components/responses/NotFound" }
        "429": { $ref: "#/components/responses/TooManyRequests" }
        "503": { $ref: "#/components/responses/Unavailable" }
  /sources/{name}/resume:
    post:
      tags: [admin]
      operationId: resumeSource
      summary: Resume a paused source
      security: [{ adminToken: [] }]
      parameters:
        - $ref: "#/components/parameters/SourceName"
      responses:
        "200":
          description: Resumed (`changed` is false when it was not paused); a pass starts.
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Pause" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "403": { $ref: "#/components/responses/Forbidden" }
        "404": { $ref: "#/components/responses/NotFound" }
        "429": { $ref: "#/components/responses/TooManyRequests" }
        "503": { $ref: "#/components/responses/Unavailable" }
  /sources/{name}/cancel:
    post:
      tags: [admin]
      operationId: cancelSource
      summary: Stop the source's runs going now, on any replica, and drop its queued forced run
      security: [{ adminToken: [] }]
      parameters:
        - $ref: "#/components/parameters/SourceName"
      responses:
        "202":
          description: Asked; the runs stop within seconds.
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Cancel" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "403": { $ref: "#/components/responses/Forbidden" }
        "404": { $ref: "#/components/responses/NotFound" }
        "409": { $ref: "#/components/responses/Conflict" }
        "429": { $ref: "#/components/responses/TooManyRequests" }
        "503": { $ref: "#/components/responses/Unavailable" }
  /domains/{domain}/purge:
    post:
      tags: [admin]
      operationId: purgeDomain
      summary: Purge a domain and every domain under it, at once and for good
      security: [{ adminToken: [] }]
      parameters:
        - name: domain
          in: path
          required: true
          schema: { type: string }
          example: com.example.retired
      responses:
        "200":
          description: Gone from every search.
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Purge" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "403": { $ref: "#/components/responses/Forbidden" }
        "409": { $ref: "#/components/responses/Conflict" }
        "429": { $ref: "#/components/responses/TooManyRequests" }
        "503": { $ref: "#/components/responses/Unavailable" }
  /keys:
    post:
      tags: [admin]
      operationId: createSearchKey
      summary: Make a search key; its secret is shown this once
      description: The key finds the items of its domains and of those under them, and signs tenant tokens (docs/security.md). The service needs `SCHEDULER_SEARCH_KEY_SECRET` to make one (503 without it).
      security: [{ adminToken: [] }]
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/SearchKeyRequest" }
      responses:
        "201":
          description: Made; `key` is its secret, shown only in this answer.
          content:
            application/json:
              schema: { $ref: "#/components/schemas/SearchKey" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "403": { $ref: "#/components/responses/Forbidden" }
        "413": { $ref: "#/components/responses/TooLarge" }
        "429": { $ref: "#/components/responses/TooManyRequests" }
        "503": { $ref: "#/components/responses/Unavailable" }
    get:
      tags: [admin]
      operationId: listSearchKeys
      summary: The search keys not revoked, without their secrets
      security: [{ adminToken: [] }]
      responses:
        "200":
          description: Oldest first.
          content:
            application/json:
              schema:
                type: object
                required: [keys]
                properties:
                  keys: { type: array, items: { $ref: "#/components/schemas/SearchKey" } }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "403": { $ref: "#/components/responses/Forbidden" }
        "429": { $ref: "#/components/responses/TooManyRequests" }
        "503": { $ref: "#/components/responses/Unavailable" }
  /keys/{uid}:
    delete:
      tags: [admin]
      operationId: revokeSearchKey
      summary: Revoke a search key; it and the tenant tokens it signed stop working on every replica within seconds
      security: [{ adminToken: [] }]
      parameters:
        - name: uid
          in: path
          required: true
          schema: { type: string }
          example: 3f2a9c0d5b7e41a8b6c2d9e0f1a2b3c4
      responses:
        "200":
          description: Revoked.
          content:
            application/json:
              schema:
                type: object
                required: [uid, revoked]
                properties:
                  uid: { type: string }
                  revoked: { type: boolean }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "403": { $ref: "#/components/responses/Forbidden" }
        "404": { $ref: "#/components/responses/NotFound" }
        "429": { $ref: "#/components/responses/TooManyRequests" }
        "503": { $ref: "#/components/responses/Unavailable" }
  /openapi.json:
    get:
      tags: [operations]
      operationId: openAPIJSON
      summary: This document, as JSON
      responses:
        "200":
          description: The contract.
          content:
            application/json:
              schema: { type: object }
  /openapi.yaml:
    get:
      tags: [operations]
      operationId: openAPIYAML
      summary: This document, as YAML
      responses:
        "200":
          description: The contract.
          content:
            application/yaml:
              schema: { type: object }
components:
  securitySchemes:
    adminToken:
      type: http
      scheme: bearer
      description: The admin token (`SCHEDULER_ADMIN_TOKEN_FILE`, the systemd credential `admin-token`, or `SCHEDULER_ADMIN_TOKEN`). Without a token configured, admin endpoints answer 403.
    searchKey:
      type: http
      scheme: bearer
      description: With `search.access` `keys`, a search key (`sk_…`, made with `POST /keys`) or a tenant token (a JWT signed with a key, HS256, claims `keyUid`, `exp`, optional `domains` and `groups`).
  parameters:
    ItemIdentifier:
      name: id
      in: path
      required: true
      description: The item's `uniqueIdentifier`, percent-encoded.
      schema: { type: string }
      example: help-fr-delivery
    SourceName:
      name: name
      in: path
      required: true
      description: A source of the configuration in force (a name that cannot be one is refused with 400, an unknown one 404).
      schema: { type: string, pattern: "^[A-Za-z0-9_-]{1,64}$" }
      example: blog
  headers:
    RetryAfter:
      description: Seconds after which the same request may succeed.
      schema: { type: integer, minimum: 1 }
  responses:
    Preflight:
      description: Permission for a listed origin (`Access-Control-Allow-*`); for any other, the same answer without them.
      headers:
        Access-Control-Allow-Origin: { schema: { type: string }, description: "The origin, when listed." }
        Access-Control-Allow-Methods: { schema: { type: string }, example: "GET, HEAD" }
        Access-Control-Allow-Headers: { schema: { type: string }, example: Authorization }
        Vary: { schema: { type: string }, example: Origin }
    BadRequest:
      description: The request is malformed; the message says what to send.
      content:
        application/json:
          schema: { $ref: "#/components/schemas/Error" }
    Unauthorized:
      description: "The bearer token is missing or wrong (`WWW-Authenticate: Bearer`)."
      content:
        application/json:
          schema: { $ref: "#/components/schemas/Error" }
    Forbidden:
      description: No admin token is configured, so admin endpoints are closed.
      content:
        application/json:
          schema: { $ref: "#/components/schemas/Error" }
    NotFound:
      description: No such item, source, or link to open.
      content:
        application/json:
          schema: { $ref: "#/components/schemas/Error" }
    Conflict:
      description: Not now (a pass runs, the source is paused, a replica runs a unit inside the domain); the message says why.
      content:
        application/json:
          schema: { $ref: "#/components/schemas/Error" }
    TooManyRequests:
      description: Over a limit (opens a minute, wrong tokens); retry after `Retry-After`.
      headers:
        Retry-After: { $ref: "#/components/headers/RetryAfter" }
      content:
        application/json:
          schema: { $ref: "#/components/schemas/Error" }
    TooLarge:
      description: The body is over the size the operation reads.
      content:
        application/json:
          schema: { $ref: "#/components/schemas/Error" }
    Unavailable:
      description: The store did not answer within `service.requestDeadline` (Retry-After 1) or failed (Retry-After 5); or, without Retry-After, the service lacks a setting the operation needs (the message names it).
      headers:
        Retry-After: { $ref: "#/components/headers/RetryAfter" }
      content:
        application/json:
          schema: { $ref: "#/components/schemas/Error" }
  schemas:
    Error:
      type: object
      required: [error]
      properties:
        error: { type: string, description: "What is wrong, and what to do." }
    TextRange:
      description: A highlighted range of a text, `[start, end)` in UTF-16 code units.
      type: array
      items: { type: integer, minimum: 0 }
      minItems: 2
      maxItems: 2
    ItemFields:
      type: object
      required: [uniqueIdentifier, domainIdentifier, contentType, title, displayName, contentDescription, keywords, authorNames,
        contentCreationDate, contentModificationDate, contentURL, relatedUniqueIdentifier, thumbnailURL, rankingHint, version, expirationDate]
      properties:
        uniqueIdentifier: { type: string }
        domainIdentifier: { type: string }
        contentType: { type: string }
        title: { type: [string, "null"] }
        displayName: { type: [string, "null"] }
        contentDescription: { type: [string, "null"] }
        keywords: { type: array, items: { type: string } }
        authorNames: { type: array, items: { type: string } }
        contentCreationDate: { type: [string, "null"], format: date-time }
        contentModificationDate: { type: [string, "null"], format: date-time }
        contentURL: { type: [string, "null"] }
        relatedUniqueIdentifier: { type: [string, "null"] }
        thumbnailURL: { type: [string, "null"] }
        rankingHint: { type: [integer, "null"] }
        version: { type: [string, "null"], description: "The documentation version the item belongs to (`version=` on /search)." }
        expirationDate: { type: string, format: date-time }
    Item:
      allOf:
        - $ref: "#/components/schemas/ItemFields"
        - type: object
          required: [thumbnailType]
          properties:
            thumbnailType: { type: [string, "null"], description: "The stored thumbnail's media type; null when none is served." }
    SearchHit:
      allOf:
        - $ref: "#/components/schemas/ItemFields"
        - type: object
          required: [score]
          properties:
            score: { type: number }
            highlights:
              type: [object, "null"]
              description: Where the typed words are in each field; null when the hit has none to show.
              properties:
                title: { type: array, items: { $ref: "#/components/schemas/TextRange" } }
                displayName: { type: array, items: { $ref: "#/components/schemas/TextRange" } }
                contentDescription: { type: array, items: { $ref: "#/components/schemas/TextRange" } }
                keywords: { type: array, items: { type: array, items: { $ref: "#/components/schemas/TextRange" } } }
                authorNames: { type: array, items: { type: array, items: { $ref: "#/components/schemas/TextRange" } } }
            snippet:
              type: [object, "null"]
              description: The passage of the description around the words found; null without a description.
              required: [text, highlights]
              properties:
                text: { type: string }
                highlights: { type: array, items: { $ref: "#/components/schemas/TextRange" } }
            sections:
              type: array
              description: "With distinct=page (relevance order), the page's other matching items, best first, at most 3: its sections, or the page's own item when a section is the hit. Empty otherwise."
              items: { $ref: "#/components/schemas/SearchHit" }
    SearchResults:
      type: object
      required: [hits, total, totalIsExact]
      properties:
        hits: { type: array, items: { $ref: "#/components/schemas/SearchHit" } }
        total: { type: integer, minimum: 0, description: "How many items match (at least this many when not exact)." }
        totalIsExact: { type: boolean }
        facets:
          type: object
          description: Per facet asked for, the count of matches per value.
          additionalProperties: { type: object, additionalProperties: { type: integer, minimum: 0 } }
        facetsAreExact: { type: boolean }
      example:
        hits: []
        total: 0
        totalIsExact: true
    Health:
      type: object
      required: [loop, database]
      properties:
        loop: { type: boolean }
        database: { type: boolean }
        lastPass: { type: string, format: date-time }
        lastPassError: { type: string }
        problem: { type: string }
    Status:
      type: object
      required: [at, configValid, problems, units, orphanedDomains, pendingPurges, pausedSources, totalItems]
      properties:
        at: { type: string, format: date-time }
        configValid: { type: boolean }
        configGeneration: { type: integer }
        configFingerprint: { type: string }
        problems: { type: array, items: { type: object } }
        totalItems: { type: integer }
        units:
          type: array
          items:
            type: object
            required: [source, unit, domain, gate, items]
            properties:
              source: { type: string }
              unit: { type: string }
              domain: { type: string }
              gate: { type: string, enum: ["on", "off", unknown] }
              items: { type: integer }
              lastSuccess: { type: string, format: date-time }
              nextDue: { type: string, format: date-time }
              restorableUntil: { type: string, format: date-time, description: "Until when the purge of its domain can be undone by its gate turning on." }
        orphanedDomains: { type: array, items: { type: object } }
        pendingPurges:
          type: array
          items:
            type: object
            required: [domain, purgedAt, purgedItems, rowsLeft]
            properties:
              domain: { type: string }
              purgedAt: { type: string, format: date-time }
              purgedItems: { type: integer }
              rowsLeft: { type: integer }
              restorableUntil: { type: string, format: date-time }
        pausedSources: { type: array, items: { type: object } }
        replicas: { type: array, items: { type: object } }
        replicaWarning: { type: string }
    Analytics:
      type: object
      required: [since, searches, searchesWithoutHits, opens, topQueries, queriesWithoutHits, mostOpened]
      properties:
        since: { type: string, format: date-time }
        searches: { type: integer }
        searchesWithoutHits: { type: integer }
        opens: { type: integer }
        searchesByKey:
          description: The searches of each search key (its tokens included) this replica answered since it started, most first.
          type: array
          items:
            type: object
            required: [uid, searches]
            properties:
              uid: { type: string }
              searches: { type: integer }
        topQueries: { type: array, items: { $ref: "#/components/schemas/QueryCount" } }
        queriesWithoutHits: { type: array, items: { $ref: "#/components/schemas/QueryCount" } }
        mostOpened:
          type: array
          items:
            type: object
            required: [uniqueIdentifier, opens]
            properties:
              uniqueIdentifier: { type: string }
              title: { type: string }
              opens: { type: integer }
    QueryCount:
      type: object
      required: [query, searches, withoutHits, opens]
      properties:
        query: { type: string }
        searches: { type: integer }
        withoutHits: { type: integer }
        opens: { type: integer }
        clickThrough: { type: number }
    Queued:
      type: object
      required: [source, mode, status]
      properties:
        source: { type: string }
        mode: { type: string, enum: [full, incremental] }
        status: { type: string }
    SearchKeyRequest:
      type: object
      required: [name, domains]
      properties:
        name: { type: string, minLength: 1, maxLength: 200, description: "What the key is for; no control characters." }
        domains:
          type: array
          minItems: 1
          maxItems: 100
          items: { type: string }
          description: The domains the key finds items in, each with the domains under it.
          example: [com.shop]
        expires: { type: string, format: date-time, description: "When the key stops working; absent: when revoked." }
    SearchKey:
      type: object
      required: [uid, name, domains, createdAt]
      properties:
        uid: { type: string, description: "Public: tenant tokens name their key by it (`keyUid`)." }
        key: { type: string, description: "The secret, only in the answer that made it." }
        name: { type: string }
        domains: { type: array, items: { type: string } }
        expires: { type: string, format: date-time }
        createdAt: { type: string, format: date-time }
    Pause:
      type: object
      required: [source, paused, changed, status]
      properties:
        source: { type: string }
        paused: { type: boolean }
        changed: { type: boolean }
        status: { type: string }
    Cancel:
      type: object
      required: [source, units, droppedQueuedRun, status]
      properties:
        source: { type: string }
        units: { type: array, items: { type: string } }
        droppedQueuedRun: { type: boolean }
        status: { type: string }
    Purge:
      type: object
      required: [domain, deleted]
      properties:
        domain: { type: string }
        deleted: { type: integer, minimum: 0 }
"""#
}
