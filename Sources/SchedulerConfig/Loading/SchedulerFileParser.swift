import Foundation
import PluginAPI
import Store
import YAML

/// Reads `scheduler.yaml`: the environment, the store, the service, the defaults, the search and the sources.
struct SchedulerFileParser {
    static let topKeys = ["environment", "environments", "store", "service", "defaults", "search", "sources"]
    static let sourceKeys = ["plugin", "domain", "gate", "schedule", "incremental", "partitions", "expiration", "deepLink", "maxDeleteRatio", "maxDeleteWindow", "timeZone", "missedRuns", "startingDeadline", "jitter", "purgeGrace", "options"]

    let reader: NodeReader
    let directory: URL
    let registry: PluginRegistry

    /// The settings, or `nil` when the file is unusable; `gates` holds the gate names gates.yaml declares,
    /// or `nil` when that file could not be read (references to gates are then not checked: the broken
    /// file is the problem reported). `declaredSources` receives every source name, valid or not.
    func parse(_ root: YAMLNode?, gates: Set<String>?, declaredSources: inout Set<String>) -> SchedulerSettings? {
        guard let root, let top = reader.mapping(root, "scheduler.yaml", known: Self.topKeys) else {
            reader.problem(root, "scheduler.yaml must be a mapping with 'store:' and 'sources:'")
            return nil
        }
        func value(_ key: String) -> YAMLNode? { top.first { $0.key == key }?.value }
        var settings = SchedulerSettings(store: .sqlite(path: ""), localFilesPath: "")
        if let node = value("environment"), let environment = reader.string(node, "environment") {
            settings.environment = environment
        }
        if let node = value("environments"), let others = reader.stringList(node, "environments") {
            settings.otherEnvironments = others.filter { $0 != settings.environment }
        }
        // A bad store is reported, and the rest still read: its sources are then known to experiments.yaml.
        let store = Self.storeLocation(root, reader: reader, directory: directory)
        if store == nil, value("store") == nil {
            reader.problem(root, "'store: { sqlite: { path: … } }' or 'store: { postgres: { url: … } }' is required: where the index lives")
        }
        if let node = root["store"]?["history"],
            let length = reader.integer(node, "store.history", in: 1...1_000_000)
        {
            settings.historyLength = length
        }
        if let service = value("service") { parseService(service, into: &settings) }
        if let defaults = value("defaults") { parseDefaults(defaults, into: &settings) }
        if let search = value("search"), let parsed = SearchSettingsParser(reader: reader).parse(search) {
            settings.search = parsed
        }
        if let sources = value("sources") { parseSources(sources, gates: gates, declaredSources: &declaredSources, into: &settings) }
        guard let store else { return nil }
        settings.store = store
        settings.localFilesPath = store.localFilesPath(configDirectory: directory)
        return settings
    }

    /// `service:`: the HTTP server's addresses and limits, the tick, and how many runs go at once.
    private func parseService(_ service: YAMLNode, into settings: inout SchedulerSettings) {
        let serviceKeys = [
            "tick", "listen", "adminListen", "idleTimeout", "maxConnections", "maxConnectionsPerClient", "maxRequestsPerConnection", "maxConnectionAge",
            "overdueGrace", "requestDeadline", "openSchemes", "openRateLimit", "maxStartsPerMinute", "concurrency",
        ]
        guard let fields = reader.mapping(service, "service", known: serviceKeys) else { return }
        for (key, _, node) in fields {
            if key == "idleTimeout", let timeout = reader.duration(node, "service.idleTimeout") { settings.idleTimeout = timeout }
            if key == "maxConnections", let count = reader.integer(node, "service.maxConnections", in: 1...100_000) {
                settings.maxConnections = count
            }
            if key == "maxConnectionsPerClient", let count = reader.integer(node, "service.maxConnectionsPerClient", in: 1...100_000) {
                settings.maxConnectionsPerClient = count
            }
            if key == "maxRequestsPerConnection", let count = reader.integer(node, "service.maxRequestsPerConnection", in: 1...10_000_000) {
                settings.maxRequestsPerConnection = count
            }
            if key == "maxConnectionAge", let age = reader.duration(node, "service.maxConnectionAge", minimum: .seconds(1)) {
                settings.maxConnectionAge = age
            }
            if key == "adminListen", let text = reader.string(node, "service.adminListen") {
                if let address = ListenAddress(text) { settings.adminListen = address } else {
                    reader.problem(node, "service.adminListen '\(text)' must be host:port, such as 127.0.0.1:9090")
                }
            }
            if key == "openSchemes", let schemes = openSchemes(node) { settings.openSchemes = schemes }
            if key == "openRateLimit", let limit = reader.integer(node, "service.openRateLimit", in: 1...1_000_000) {
                settings.openRateLimit = limit
            }
            if key == "concurrency", let count = reader.integer(node, "service.concurrency", in: 1...SchedulerSettings.maxConcurrency) {
                settings.concurrency = count
            }
            if key == "maxStartsPerMinute", let limit = reader.integer(node, "service.maxStartsPerMinute", in: 1...1_000_000) {
                settings.maxStartsPerMinute = limit
            }
            if key == "overdueGrace", let grace = reader.duration(node, "service.overdueGrace") { settings.overdueGrace = grace }
            if key == "requestDeadline", let deadline = reader.duration(node, "service.requestDeadline") {
                if deadline > .seconds(300) {
                    reader.problem(node, "service.requestDeadline must be at most 5m: a request held longer holds a connection slot")
                } else {
                    settings.requestDeadline = deadline
                }
            }
            if key == "tick", let tick = reader.duration(node, "service.tick") { settings.tick = tick }
            if key == "listen", let text = reader.string(node, "service.listen") {
                if let address = ListenAddress(text) { settings.listen = address } else {
                    reader.problem(node, "service.listen '\(text)' must be host:port, such as 127.0.0.1:8080")
                }
            }
        }
        if let admin = settings.adminListen, admin == settings.listen, admin.port != 0 {
            reader.problem(service["adminListen"], "service.adminListen \(admin) is service.listen too; give operators an address or port of their own")
        }
    }

    /// `defaults:`: what every source inherits unless it says otherwise.
    private func parseDefaults(_ defaults: YAMLNode, into settings: inout SchedulerSettings) {
        let defaultKeys = ["expiration", "maxDeleteRatio", "maxDeleteWindow", "timeZone", "missedRuns", "startingDeadline", "purgeGrace"]
        guard let fields = reader.mapping(defaults, "defaults", known: defaultKeys) else { return }
        let parsers = SettingParsers(reader: reader)
        for (key, _, node) in fields {
            if key == "missedRuns", let policy = parsers.missedRuns(node, "defaults") { settings.defaultMissedRuns = policy }
            if key == "startingDeadline", let deadline = parsers.startingDeadline(node, "defaults", tick: settings.tick) {
                settings.defaultStartingDeadline = deadline
            }
            if key == "maxDeleteWindow", let window = reader.duration(node, "defaults.maxDeleteWindow") { settings.defaultMaxDeleteWindow = window }
            if key == "purgeGrace", let grace = parsers.purgeGrace(node, "defaults") { settings.defaultPurgeGrace = grace }
            if key == "timeZone", let zone = SettingParsers(reader: reader).timeZone(node, "defaults") { settings.defaultTimeZone = zone }
            if key == "expiration", let expiration = reader.duration(node, "defaults.expiration") { settings.defaultExpiration = expiration }
            if key == "maxDeleteRatio", let ratio = reader.number(node, "defaults.maxDeleteRatio", in: 0...1) { settings.defaultMaxDeleteRatio = ratio }
        }
    }

    /// `sources:`: each source, refused when its domain overlaps an earlier one's; every name goes to `declaredSources`.
    private func parseSources(
        _ sources: YAMLNode, gates: Set<String>?, declaredSources: inout Set<String>, into settings: inout SchedulerSettings
    ) {
        guard let entries = reader.mapping(sources, "sources") else { return }
        var domainOwners = DomainOwners()
        for entry in entries {
            guard let name = reader.name(entry.keyNode, "source name") else { continue }
            declaredSources.insert(name)
            guard let source = parseSource(name, entry.value, gates: gates, defaults: settings) else { continue }
            if let owner = domainOwners.overlapping(source.domain) {
                let domainNode = reader.mapping(entry.value, "source '\(name)'")?.first { $0.key == "domain" }?.value
                reader.problem(domainNode, "source '\(name)': domain '\(source.domain)' overlaps source '\(owner.source)''s domain "
                    + "'\(owner.domain)'; purging one would purge the other, so give each source a domain of its own")
                continue
            }
            domainOwners.add(source.domain, source: name)
            settings.sources.append(source)
        }
    }

    /// `service.openSchemes`: URL scheme names, none of those a browser would run or read locally
    /// (``OpenSchemes/neverRedirected``).
    func openSchemes(_ node: YAMLNode) -> Set<String>? {
        guard let names = reader.stringList(node, "service.openSchemes"), let elements = node.elements, names.count == elements.count else {
            return nil
        }
        var schemes: Set<String> = []
        var valid = true
        for (name, element) in zip(names, elements) {
            let scheme = name.lowercased()
            if !OpenSchemes.isSchemeName(name) {
                reader.problem(element, "service.openSchemes: '\(name.prefix(80))' is not a URL scheme name (a letter, then letters, digits, '+', '-' or '.'), such as https or shop")
            } else if OpenSchemes.neverRedirected.contains(scheme) {
                reader.problem(element, "service.openSchemes: '\(scheme)' is never redirected to (a browser would run or read what it names); remove it")
            } else if !schemes.insert(scheme).inserted {
                reader.problem(element, "'\(scheme)' appears twice in service.openSchemes (scheme names ignore case)")
            } else {
                continue
            }
            valid = false
        }
        return valid ? schemes : nil
    }

    /// The `store:` section: exactly one of `sqlite: { path }` (resolved against the config folder) or
    /// `postgres: { url, passwordFromEnvironment, pool, tls }`.
    static func storeLocation(_ root: YAMLNode, reader: NodeReader, directory: URL) -> StoreLocation? {
        let shape = "'store: { sqlite: { path: … } }' or 'store: { postgres: { url: … } }' is required: where the index lives"
        guard let store = root["store"] else { return nil }
        guard let fields = reader.mapping(store, "store", known: ["sqlite", "postgres", "history"]) else { return nil }
        let backends = fields.filter { $0.key == "sqlite" || $0.key == "postgres" }
        guard backends.count == 1, let backend = backends.first else {
            reader.problem(backends.count > 1 ? backends[1].keyNode : store, backends.count > 1 ? "store: name one of sqlite or postgres, not both" : shape)
            return nil
        }
        if backend.key == "sqlite" {
            guard let sqliteFields = reader.mapping(backend.value, "store.sqlite", known: ["path"]) else { return nil }
            guard let pathNode = sqliteFields.first(where: { $0.key == "path" })?.value else {
                reader.problem(backend.value, "store.sqlite.path is required: the database file of the index")
                return nil
            }
            guard let path = reader.string(pathNode, "store.sqlite.path") else { return nil }
            let resolved = ConfigPathRule.absolute(path, relativeTo: directory.path)
            if let problem = ConfigPathRule.problem(with: resolved, expecting: .file) {
                reader.problem(pathNode, "store.sqlite.path: \(problem)")
                return nil
            }
            return .sqlite(resolving: resolved)
        }
        return postgresLocation(backend.value, reader: reader)
    }

    private static func postgresLocation(_ node: YAMLNode, reader: NodeReader) -> StoreLocation? {
        guard let fields = reader.mapping(node, "store.postgres", known: ["url", "passwordFromEnvironment", "pool", "tls", "leaseTTL", "searchCopy"]) else { return nil }
        func value(_ key: String) -> YAMLNode? { fields.first { $0.key == key }?.value }
        guard let urlNode = value("url") else {
            reader.problem(node, "store.postgres.url is required, such as postgres://scheduler@db.internal:5432/search")
            return nil
        }
        guard let url = reader.string(urlNode, "store.postgres.url") else { return nil }
        var location: PostgresLocation
        switch PostgresLocation.parse(url: url) {
        case .success(let parsed): location = parsed
        case .failure(let problem):
            // The URL may hold a password: the message does not repeat it.
            reader.problem(urlNode, "store.postgres.url \(problem.reason)")
            return nil
        }
        var valid = true
        if let node = value("passwordFromEnvironment") {
            if let name = reader.string(node, "store.postgres.passwordFromEnvironment"),
                name.range(of: "^[A-Za-z_][A-Za-z0-9_]*$", options: .regularExpression) != nil
            {
                location.passwordFromEnvironment = name
            } else {
                reader.problem(node, "store.postgres.passwordFromEnvironment must name an environment variable, such as PGPASSWORD")
                valid = false
            }
        }
        if let node = value("pool") {
            if let size = reader.integer(node, "store.postgres.pool", in: 1...1000) { location.poolSize = size } else { valid = false }
        }
        if let node = value("leaseTTL") {
            if let ttl = reader.duration(node, "store.postgres.leaseTTL", minimum: .seconds(3)) { location.leaseTTL = ttl } else { valid = false }
        }
        if let node = value("searchCopy") {
            if let copy = reader.bool(node, "store.postgres.searchCopy") { location.searchCopy = copy } else { valid = false }
        }
        if let node = value("tls") {
            if let text = reader.string(node, "store.postgres.tls"), let mode = PostgresLocation.TLSMode(rawValue: text) {
                location.tls = mode
            } else {
                reader.problem(node, "store.postgres.tls must be one of \(PostgresLocation.TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
                valid = false
            }
        }
        return valid ? .postgres(location) : nil
    }

    /// The source `name`, its settings resolved against `defaults` (time zone, starting deadline).
    private func parseSource(_ name: String, _ node: YAMLNode, gates: Set<String>?, defaults: SchedulerSettings) -> Source? {
        let what = "source '\(name)'"
        guard let fields = reader.mapping(node, what, known: Self.sourceKeys) else { return nil }
        func value(_ key: String) -> YAMLNode? { fields.first { $0.key == key }?.value }
        for key in ["plugin", "domain", "gate", "schedule"] where value(key) == nil {
            reader.problem(node, "\(what) needs '\(key):'")
        }
        guard let pluginNode = value("plugin"), let domainNode = value("domain"), let gateNode = value("gate"),
            let scheduleNode = value("schedule")
        else { return nil }

        let plugin = reader.string(pluginNode, "\(what): plugin")
        let pluginType = plugin.flatMap { kind -> (any SourcePlugin.Type)? in
            guard let type = registry.plugin(kind: kind) else {
                reader.problem(pluginNode, "\(what): unknown plugin '\(kind)'\(NearestName.suggestion(for: kind, among: registry.kinds)); "
                    + "known plugins: \(registry.kinds.joined(separator: ", "))")
                return nil
            }
            return type
        }
        let domain = reader.string(domainNode, "\(what): domain").flatMap { domain -> String? in
            guard DomainIdentifier.isValid(domain) else {
                reader.problem(domainNode, "\(what): \(DomainIdentifier.syntaxProblem(domain))")
                return nil
            }
            return domain
        }
        let gate = reader.name(gateNode, "\(what): gate").flatMap { gate -> String? in
            if let gates, !gates.contains(gate) {
                reader.problem(gateNode, "\(what): gate '\(gate)' is not defined in gates.yaml"
                    + "\(NearestName.suggestion(for: gate, among: gates))")
                return nil
            }
            return gate
        }
        let schedule = SettingParsers(reader: reader).schedule(scheduleNode, what)
        var partitions: [String] = []
        if let node = value("partitions") {
            partitions = reader.stringList(node, "\(what): partitions") ?? []
            for partition in partitions where !DomainIdentifier.isValid(partition) || partition.contains(".") {
                reader.problem(node, "\(what): partition '\(partition)' must be letters, digits, '-' or '_' (it becomes the last part of the domain)")
            }
        }
        let parsers = SettingParsers(reader: reader)
        var valid = true
        /// The parsed value of an optional key; an invalid value marks the source invalid.
        func optional<T>(_ key: String, _ parse: (YAMLNode, String) -> T?) -> T? {
            guard let node = value(key) else { return nil }
            guard let parsed = parse(node, what) else { valid = false; return nil }
            return parsed
        }
        let expiration = optional("expiration", parsers.expiration)
        let deepLink = optional("deepLink", parsers.deepLink)
        let maxDeleteRatio = optional("maxDeleteRatio", parsers.maxDeleteRatio)
        let maxDeleteWindow = optional("maxDeleteWindow") { node, what in reader.duration(node, "\(what): maxDeleteWindow") }
        let timeZone = optional("timeZone", parsers.timeZone) ?? defaults.defaultTimeZone
        let missedRuns = optional("missedRuns", parsers.missedRuns) ?? defaults.defaultMissedRuns
        let startingDeadline = optional("startingDeadline") { node, what in parsers.startingDeadline(node, what, tick: defaults.tick) }
            ?? defaults.defaultStartingDeadline ?? (missedRuns == .skip ? defaults.tick : nil)
        let purgeGrace = optional("purgeGrace", parsers.purgeGrace) ?? defaults.defaultPurgeGrace
        let incremental = optional("incremental") { node, what in parsers.schedule(node, what, key: "incremental") }
        let jitter = optional("jitter") { node, what in
            parsers.jitter(node, what, schedules: [schedule, incremental].compactMap { $0 })
        }
        if let node = value("incremental"), let pluginType, !pluginType.sync.contains(.incremental) {
            reader.problem(node, "\(what): plugin '\(pluginType.kind)' runs full syncs only; remove 'incremental:' (the plugins that run incremental syncs say so in `scheduler plugins`)")
            valid = false
        }
        let options = value("options") ?? YAMLNode(.mapping([]), mark: node.mark)
        let maker = pluginType.flatMap { pluginType in
            let site = PluginValidationContext(baseDirectory: directory.path, partitions: partitions)
            return PluginOptions.check(pluginType, options, owner: value("options") ?? pluginNode, in: site, reader: reader, context: what)
        }
        guard valid, let plugin, let maker, let domain, let gate, let schedule else { return nil }
        let settings = SourceSettings(
            schedule: schedule, incremental: incremental, timeZone: timeZone, expiration: expiration, deepLink: deepLink, maxDeleteRatio: maxDeleteRatio,
            maxDeleteWindow: maxDeleteWindow, startingDeadline: startingDeadline, jitter: jitter, purgeGrace: purgeGrace, options: options, maker: maker
        )
        return Source(name: name, plugin: plugin, domain: domain, gate: gate, settings: settings, partitions: partitions)
    }
}

/// Parsers for the settings a source and an experiment variant share.
struct SettingParsers {
    let reader: NodeReader

    func missedRuns(_ node: YAMLNode, _ what: String) -> MissedRuns? {
        guard let text = reader.string(node, "\(what): missedRuns") else { return nil }
        guard let policy = MissedRuns(rawValue: text) else {
            reader.problem(node, "\(what): missedRuns '\(text.prefix(40))' must be once (one catch-up run after an outage) or skip (wait for the next instant)")
            return nil
        }
        return policy
    }

    /// A jitter: shorter than the shortest period of `schedules`, or a unit's moved instant could pass the next one.
    func jitter(_ node: YAMLNode, _ what: String, schedules: [Schedule]) -> Duration? {
        guard let jitter = reader.duration(node, "\(what): jitter") else { return nil }
        for schedule in schedules {
            let period = schedule.shortestPeriod
            guard jitter < period else {
                reader.problem(node, "\(what): jitter \(DurationText.format(jitter)) is not shorter than the period of its schedule \(schedule) "
                    + "(\(DurationText.format(period))): a unit's moved instant would pass the next one; give less")
                return nil
            }
        }
        return jitter
    }

    /// A starting deadline: a duration of a tick or more (passes reach a due instant up to a tick late).
    /// A duration, or `0` (or `0s`): a purge that is final at once.
    func purgeGrace(_ node: YAMLNode, _ what: String) -> Duration? {
        if let text = node.scalarText, ["0", "0s"].contains(text.trimmingCharacters(in: .whitespaces)) { return .zero }
        return reader.duration(node, "\(what): purgeGrace")
    }

    func startingDeadline(_ node: YAMLNode, _ what: String, tick: Duration) -> Duration? {
        guard let deadline = reader.duration(node, "\(what): startingDeadline") else { return nil }
        guard deadline >= tick else {
            reader.problem(node, "\(what): startingDeadline \(DurationText.format(deadline)) is shorter than service.tick \(DurationText.format(tick)): "
                + "a pass may reach a due instant a whole tick late, so runs would be skipped; give a tick or more")
            return nil
        }
        return deadline
    }

    func schedule(_ node: YAMLNode, _ what: String, key: String = "schedule") -> Schedule? {
        guard let text = reader.string(node, "\(what): \(key)") else { return nil }
        do {
            return try Schedule.parse(text)
        } catch {
            reader.problem(node, "\(what): \(key) \(error.reason)")
            return nil
        }
    }

    func expiration(_ node: YAMLNode, _ what: String) -> Duration? {
        reader.duration(node, "\(what): expiration", minimum: .seconds(60))
    }

    func deepLink(_ node: YAMLNode, _ what: String) -> String? {
        guard let text = reader.string(node, "\(what): deepLink") else { return nil }
        guard text.contains("{id}"), let url = URL(string: text.replacingOccurrences(of: "{id}", with: "x")), url.scheme != nil else {
            reader.problem(node, "\(what): deepLink '\(text.prefix(80))' must be an absolute URL template with {id}, such as shop://category/{id}")
            return nil
        }
        return text
    }

    /// An IANA time zone name (`Europe/Paris`, `UTC`).
    func timeZone(_ node: YAMLNode, _ what: String) -> TimeZone? {
        guard let name = reader.string(node, "\(what): timeZone") else { return nil }
        guard ZoneNames.isKnown(name), let zone = TimeZone(identifier: name) else {
            reader.problem(node, "\(what): unknown time zone '\(name.prefix(80))'\(NearestName.suggestion(for: name, among: ZoneNames.known.sorted())); "
                + "write an IANA name such as Europe/Paris, America/New_York or UTC")
            return nil
        }
        return zone
    }

    func maxDeleteRatio(_ node: YAMLNode, _ what: String) -> Double? {
        reader.number(node, "\(what): maxDeleteRatio", in: 0...1)
    }
}
