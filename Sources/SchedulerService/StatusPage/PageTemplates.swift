/// The pages' Mustache templates: the status page, a unit's page and the sign-in form, sharing their head and foot
/// (partials). `{{…}}` escapes what it prints (`<`, `>`, `&`, quotes); no page uses the unescaped `{{{…}}}`. The
/// script and the style are files of their own (``StatusPageAssets``), so the Content-Security-Policy allows no
/// inline code.
enum PageTemplates {
    /// Every template, by name.
    static let all = [
        "head": head, "foot": foot, "console": console, "formFields": formFields, "status": status, "unit": unit, "signin": signIn, "refused": refused,
    ]

    /// What every action form of a unit's page carries: the session's CSRF token, and the page to come back to.
    static let formFields = #"<input type="hidden" name="csrf" value="{{csrfToken}}"><input type="hidden" name="back" value="{{link}}">"#

    static let head = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>{{#title}}{{.}} · {{/title}}Reindex scheduler · {{environment}}</title>
    <link rel="stylesheet" href="/assets/status.css">
    <script src="/assets/status.js" defer></script>
    <noscript><meta http-equiv="refresh" content="30"></noscript>
    </head>
    <body>
    """#

    static let foot = #"""
    <footer class="muted"><a href="/">the status page</a> · <a href="/status">/status</a> (JSON) · <a href="/metrics">/metrics</a> · <a href="/healthz">/healthz</a></footer>
    </body>
    </html>
    """#

    /// Who is signed in, with the sign-out form, or the way to sign in.
    static let console = #"""
    {{#console}}{{#available}}<div class="console">{{#signedIn}}Signed in · <form class="inline" method="post" action="/signout"><input type="hidden" name="csrf" value="{{csrfToken}}"><button type="submit">Sign out</button></form>{{/signedIn}}{{^signedIn}}<a href="/signin">Sign in</a> to act on units{{/signedIn}}</div>{{/available}}{{/console}}
    {{#notice}}<p class="notice" role="status">{{.}}</p>{{/notice}}
    """#

    static let status = #"""
    {{> head}}
    <header>
      {{> console}}
      <h1>Reindex scheduler <span class="env">{{environment}}</span></h1>
      <form id="search" action="/" method="get" role="search">
        <label for="q">Search the index</label>
        <input id="q" name="q" type="search" autocomplete="off" spellcheck="false" placeholder="Type to search…">
      </form>
      <p id="search-status" class="muted" aria-live="polite"></p>
      <ol id="results"></ol>
    </header>
    <main id="live" data-generated="{{generatedAt}}">
      <p class="muted">As of {{generatedAt}}{{#configGeneration}} · configuration #{{configGeneration}}{{/configGeneration}} · refreshes every 30 s</p>
      {{#hasConfigProblems}}
      <section class="alert" id="config-problems">
        <h2>A config change was refused: the last good configuration stays in force</h2>
        <ul>{{#configProblems}}<li><code>{{.}}</code></li>{{/configProblems}}</ul>
      </section>
      {{/hasConfigProblems}}
      {{#lastPassError}}<section class="alert" id="pass-error"><h2>The last pass failed as a whole</h2><p><code>{{lastPassError}}</code></p></section>{{/lastPassError}}
      {{#replicaWarning}}<section class="alert"><h2>Replicas disagree</h2><p>{{replicaWarning}}</p></section>{{/replicaWarning}}
      {{#summary}}
      <ul class="summary" id="chips">
        <li><a href="/"><strong>{{units}}</strong> units</a></li>
        <li class="{{#anyFailing}}bad{{/anyFailing}}"><a href="/?show=failing#units"><strong>{{failing}}</strong> failing</a></li>
        <li class="{{#anyOverdue}}bad{{/anyOverdue}}"><a href="/?show=overdue#units"><strong>{{overdue}}</strong> overdue</a></li>
        <li><a href="/?show=running#units"><strong>{{running}}</strong> running</a></li>
        <li><a href="/?show=due#units"><strong>{{due}}</strong> due</a></li>
        <li><a href="/?show=paused#units"><strong>{{paused}}</strong> paused</a></li>
        <li><strong>{{items}}</strong> items</li>
      </ul>
      {{/summary}}
      <section>
        <h2>Units</h2>
        {{#summary}}{{#showing}}<p id="showing">Only the {{.}} units · <a href="/">show every unit</a></p>{{/showing}}{{/summary}}
        <table class="units" id="units">
          <thead><tr><th>Unit</th><th>Gate</th><th>Last result</th><th>Last success</th><th>Next due</th><th>Failures</th><th>Items</th></tr></thead>
          <tbody>
          {{#units}}
            <tr data-unit="{{unit}}" class="{{#isFailing}}failing{{/isFailing}}{{#isOverdue}} overdue{{/isOverdue}}{{#isPaused}} paused{{/isPaused}}">
              <td data-label="Unit"><div><a href="{{link}}"><strong>{{unit}}</strong></a><br><span class="muted">{{source}} · {{domain}}{{#variant}} · variant {{variant}}{{/variant}}</span></div></td>
              <td data-label="Gate"><div><span class="gate-{{gate}}">{{gate}}</span><br><span class="muted">{{gateReason}}</span></div></td>
              <td data-label="Last result"><div><span class="result">{{result}}</span>{{#isPaused}} <span class="paused">paused</span>{{/isPaused}}{{#lastError}}<br><code class="error">{{lastError}}</code>{{/lastError}}</div></td>
              <td data-label="Last success"><div>{{#lastSuccess}}{{relative}}<br><span class="muted">{{utc}}</span>{{/lastSuccess}}{{^lastSuccess}}never{{/lastSuccess}}</div></td>
              <td data-label="Next due"><div>{{#isOverdue}}<strong class="bad">overdue</strong><br>{{/isOverdue}}{{#nextDue}}{{relative}}<br><span class="muted">{{utc}}</span>{{/nextDue}}{{^nextDue}}{{dueReason}}{{/nextDue}}</div></td>
              <td data-label="Failures"><div>{{failures}}</div></td>
              <td data-label="Items"><div>{{items}}</div></td>
            </tr>
          {{/units}}
          </tbody>
        </table>
        {{^units}}{{#summary}}{{#showingAll}}<p class="muted">No units: the configuration has no sources.</p>{{/showingAll}}{{^showingAll}}<p class="muted">None {{showing}} now.</p>{{/showingAll}}{{/summary}}{{/units}}
      </section>
      <section class="columns">
        <div>
          <h2>Gates</h2>
          <div class="scroll"><table id="gates"><thead><tr><th>Gate</th><th>Enabled</th><th>Rollout</th><th>Environments</th></tr></thead><tbody>
          {{#gates}}<tr><td>{{name}}{{#window}}<br><span class="muted">{{window}}</span>{{/window}}</td><td>{{enabled}}</td><td>{{rollout}}</td><td>{{environments}}</td></tr>{{/gates}}
          </tbody></table></div>
        </div>
        <div>
          <h2>Experiments</h2>
          <div class="scroll"><table id="experiments"><thead><tr><th>Experiment</th><th>Sources</th><th>Variants</th></tr></thead><tbody>
          {{#experiments}}<tr><td>{{name}}</td><td>{{sources}}</td><td>{{variants}}</td></tr>{{/experiments}}
          </tbody></table></div>
          {{^experiments}}<p class="muted">None.</p>{{/experiments}}
        </div>
      </section>
      {{#hasOrphans}}
      <section id="orphans">
        <h2>Orphaned domains</h2>
        <p class="muted">Items no configured unit covers; <code>scheduler purge --domain</code> removes them.</p>
        <ul>{{#orphans}}<li><code>{{domain}}</code>: {{items}} items</li>{{/orphans}}</ul>
      </section>
      {{/hasOrphans}}
      {{#hasPurges}}
      <section id="purges">
        <h2>Purges in progress</h2>
        <p class="muted">Gone from search already; their rows are reclaimed in the background. A purge a gate turned off is kept for its <code>purgeGrace</code>: turning the gate on again within it brings the items back without a run.</p>
        <ul>{{#purges}}<li><code>{{domain}}</code>: {{items}} items purged {{#purged}}{{relative}}{{/purged}}, {{rowsLeft}} rows left{{#restorable}}; <strong>restorable until <time>{{utc}}</time></strong> ({{relative}}) if its gate turns on again
          {{#console}}{{#signedIn}}<form class="inline" method="post" action="/console/domains/{{domain}}/purge">{{> formFields}}<input type="hidden" name="confirm" value="{{domain}}"><button type="submit" class="danger">Purge now</button></form>{{/signedIn}}{{/console}}{{/restorable}}</li>{{/purges}}</ul>
      </section>
      {{/hasPurges}}
      {{#hasReplicas}}
      <section id="replicas">
        <h2>Replicas</h2>
        <table><thead><tr><th>Replica</th><th>Heartbeat</th><th>Leases</th></tr></thead><tbody>
        {{#replicas}}<tr><td>{{id}}</td><td>{{#heartbeat}}{{relative}}{{/heartbeat}}</td><td>{{leases}}</td></tr>{{/replicas}}
        </tbody></table>
      </section>
      {{/hasReplicas}}
      <section id="no-hits">
        <h2>Searches without hits, last 7 days</h2>
        {{#hasQueriesWithoutHits}}
        <table><thead><tr><th>Query</th><th>Without hits</th><th>Searches</th></tr></thead><tbody>
        {{#queriesWithoutHits}}<tr><td>{{query}}</td><td>{{withoutHits}}</td><td>{{searches}}</td></tr>{{/queriesWithoutHits}}
        </tbody></table>
        {{/hasQueriesWithoutHits}}
        {{^hasQueriesWithoutHits}}<p class="muted">None: every search counted found something.</p>{{/hasQueriesWithoutHits}}
      </section>
      <section>
        <h2>Last runs</h2>
        <table class="runs" id="runs"><thead><tr><th>Finished</th><th>Unit</th><th>Result</th><th>Items</th><th>Took</th><th>Why</th></tr></thead><tbody>
        {{#runs}}<tr class="{{#isFailure}}failing{{/isFailure}}"><td data-label="Finished"><div>{{#finished}}{{relative}}<br><span class="muted">{{utc}}</span>{{/finished}}</div></td><td data-label="Unit"><div><a href="{{link}}">{{unit}}</a></div></td><td data-label="Result"><div>{{decision}}</div></td><td data-label="Items"><div>{{counts}}</div></td><td data-label="Took"><div>{{duration}}</div></td><td data-label="Why" class="detail"><div>{{detail}}</div></td></tr>{{/runs}}
        </tbody></table>
        {{^runs}}<p class="muted">No run yet.</p>{{/runs}}
      </section>
    </main>
    {{> foot}}
    """#

    static let unit = #"""
    {{> head}}
    <header>
      {{> console}}
      <p><a href="/">← every unit</a></p>
      {{#unit}}<h1>{{unit}} <span class="env">{{environment}}</span></h1>
      <p class="muted">source {{source}} · domain {{domain}}</p>{{/unit}}
    </header>
    <!-- The actions come before the facts and the runs (up to 50 rows), where an operator looks first. -->
    {{#console}}{{#signedIn}}
    <section id="actions">
      <h2>Act</h2>
      {{#unit}}
      <form class="inline" method="post" action="/console/sources/{{source}}/reindex">{{> formFields}}<input type="hidden" name="mode" value="full"><button type="submit">Reindex the source</button></form>
      {{/unit}}
      {{#incremental}}{{#unit}}<form class="inline" method="post" action="/console/sources/{{source}}/reindex">{{> formFields}}<input type="hidden" name="mode" value="incremental"><button type="submit">Incremental reindex</button></form>{{/unit}}{{/incremental}}
      {{#unit}}
      {{#isPaused}}<form class="inline" method="post" action="/console/sources/{{source}}/resume">{{> formFields}}<button type="submit">Resume the source</button></form>{{/isPaused}}
      {{#isRunning}}<form class="inline" method="post" action="/console/sources/{{source}}/cancel">{{> formFields}}<button type="submit" class="danger">Cancel the running run</button></form>{{/isRunning}}
      {{^isPaused}}<form class="inline" method="post" action="/console/sources/{{source}}/pause">{{> formFields}}<button type="submit">Pause the source</button></form>{{/isPaused}}
      <form id="purge" method="post" action="/console/domains/{{domain}}/purge">{{> formFields}}
        <label for="confirm">Purge the domain: type <code>{{domain}}</code> to confirm</label>
        <input id="confirm" name="confirm" autocomplete="off" spellcheck="false" required> <button type="submit" class="danger">Purge</button>
      </form>
      <p class="muted">Actions apply to the whole source (every partition) or domain; a purged unit whose gate is on is reindexed by the next pass.</p>
      {{/unit}}
    </section>
    {{/signedIn}}{{/console}}
    <main id="live" data-generated="{{generatedAt}}">
      <p class="muted">As of {{generatedAt}} · refreshes every 30 s</p>
      {{#unit}}
      <dl class="facts" id="facts">
        <dt>Gate</dt><dd><span class="gate-{{gate}}">{{gate}}</span> <span class="muted">{{gateReason}}</span></dd>
        {{#variant}}<dt>Variant</dt><dd>{{.}} <span class="muted">{{variantReason}}</span></dd>{{/variant}}
        <dt>Last result</dt><dd><span class="result">{{result}}</span>{{#isPaused}} <span class="paused">paused</span>{{/isPaused}}{{#lastError}}<br><code class="error">{{.}}</code>{{/lastError}}</dd>
        <dt>Last success</dt><dd>{{#lastSuccess}}{{relative}} <span class="muted">{{utc}}</span>{{/lastSuccess}}{{^lastSuccess}}never{{/lastSuccess}}</dd>
        <dt>Next due</dt><dd>{{#isOverdue}}<strong class="bad">overdue</strong> {{/isOverdue}}{{#nextDue}}{{relative}} <span class="muted">{{utc}}</span><br>{{/nextDue}}<span class="muted">{{dueReason}}</span></dd>
        <dt>Failures in a row</dt><dd>{{failures}}</dd>
        <dt>Items</dt><dd>{{items}}</dd>
        {{#lastAttempt}}<dt>Last attempt</dt><dd>{{relative}} <span class="muted">{{utc}}</span></dd>{{/lastAttempt}}
        {{#backoffUntil}}<dt>Backing off until</dt><dd>{{relative}} <span class="muted">{{utc}}</span></dd>{{/backoffUntil}}
        {{#pause}}<dt>Paused</dt><dd id="pause">{{.}}</dd>{{/pause}}
        {{#hasLeases}}<dt>Lease</dt><dd id="lease">{{#lease}}held by {{holder}}, expires {{#expires}}{{relative}}{{/expires}}{{/lease}}{{^lease}}none: no replica runs it now{{/lease}}</dd>{{/hasLeases}}
      </dl>
      {{/unit}}
      <section>
        <h2>How long its runs took</h2>
        {{#trend}}
        <svg id="trend" class="trend" viewBox="0 0 600 80" width="600" height="80" role="img" aria-label="{{summary}}"><title>{{summary}}</title>
        {{#bars}}<rect class="{{kind}}" x="{{x}}" y="{{y}}" width="{{width}}" height="{{height}}"><title>{{label}}</title></rect>{{/bars}}
        </svg>
        <p class="muted">{{summary}}; oldest on the left, failures in red.</p>
        {{/trend}}
        {{^trend}}<p class="muted">No run of its plugin in the history kept.</p>{{/trend}}
      </section>
      <section>
        <h2>Runs</h2>
        <table class="runs" id="runs"><thead><tr><th>Finished</th><th>Result</th><th>Mode</th><th>Items</th><th>Took</th><th>Why</th></tr></thead><tbody>
        {{#runs}}<tr class="{{#isFailure}}failing{{/isFailure}}"><td data-label="Finished"><div>{{#finished}}{{relative}}<br><span class="muted">{{utc}}</span>{{/finished}}</div></td><td data-label="Result"><div>{{decision}}</div></td><td data-label="Mode"><div>{{mode}}</div></td><td data-label="Items"><div>{{counts}}</div></td><td data-label="Took"><div>{{duration}}</div></td><td data-label="Why" class="detail"><div>{{detail}}{{#rejections}}<br><span class="rejection">rejected {{.}}</span>{{/rejections}}</div></td></tr>{{/runs}}
        </tbody></table>
        {{^runs}}<p class="muted">No run in the history kept.</p>{{/runs}}
      </section>
    </main>
    {{> foot}}
    """#

    static let signIn = #"""
    {{> head}}
    <header><p><a href="/">← the status page</a></p><h1>Sign in <span class="env">{{environment}}</span></h1></header>
    <main>
      {{#problem}}<p class="alert" role="alert">{{.}}</p>{{/problem}}
      <form id="signin" method="post" action="/signin">
        <label for="token">The admin token (<code>SCHEDULER_ADMIN_TOKEN</code>)</label>
        <input id="token" name="token" type="password" autocomplete="current-password" required>
        <button type="submit">Sign in</button>
      </form>
      <p class="muted">The session lasts {{lasts}}; without one, the pages stay read-only.</p>
    </main>
    {{> foot}}
    """#

    /// A console action refused: why, and the way back.
    static let refused = #"""
    {{> head}}
    <header><p><a href="{{back}}">← back</a></p><h1>{{title}} <span class="env">{{environment}}</span></h1></header>
    <main><p class="alert" role="alert" id="refusal">{{message}}</p></main>
    {{> foot}}
    """#
}
