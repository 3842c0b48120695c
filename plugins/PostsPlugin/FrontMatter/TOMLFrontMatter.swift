import Foundation
import TOMLKit
import YAML

/// TOML front matter (`+++` … `+++`, Hugo and Zola) parsed by TOMLKit (toml++) and turned into the nodes YAML front
/// matter gives, so both are read by the same rules.
///
/// TOML values carry no positions: a value is placed on the line of its key (`title = …`, or the `[table]` header
/// it sits under), found in the text; syntax errors carry toml++'s own line. Dates become their ISO 8601 text.
enum TOMLFrontMatter {
    static func compose(_ text: Substring, firstLine: Int, limits: YAMLLimits) throws(FrontMatterProblem) -> YAMLNode {
        guard text.utf8.count <= limits.maxBytes else {
            throw FrontMatterProblem(line: firstLine, "the front matter is larger than \(limits.maxBytes) bytes")
        }
        if let line = TOMLHeaderCheck.firstUnsafeHeader(in: text) {
            throw FrontMatterProblem(line: firstLine - 1 + line, "TOML syntax: a table header must name a key, such as [extra] or [[items]]")
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: String(text))
        } catch let error as TOMLParseError {
            throw FrontMatterProblem(line: firstLine - 1 + max(error.source.begin.line, 1), "TOML syntax: \(error.description)")
        } catch {
            throw FrontMatterProblem(line: firstLine, "TOML syntax: \(error)")
        }
        var builder = Builder(lines: KeyLines(text, firstLine: firstLine), limits: limits)
        return try builder.node(table, path: [], depth: 0)
    }

    /// Builds nodes under the limits the YAML composer enforces (values, depth).
    private struct Builder {
        let lines: KeyLines
        let limits: YAMLLimits
        var count = 0

        mutating func node(_ value: any TOMLValueConvertible, path: [String], depth: Int) throws(FrontMatterProblem) -> YAMLNode {
            count += 1
            let mark = YAMLMark(line: lines.line(of: path), column: 1)
            guard count <= limits.maxNodes else { throw FrontMatterProblem(line: mark.line, "the front matter has more than \(limits.maxNodes) values") }
            guard depth <= limits.maxDepth else { throw FrontMatterProblem(line: mark.line, "the front matter nests deeper than \(limits.maxDepth) levels") }
            switch value.type {
            case .table:
                guard let table = value.table else { break }
                var entries: [YAMLEntry] = []
                for key in table.keys {
                    guard let child = table[key] else { continue }
                    let childNode = try node(child, path: path + [key], depth: depth + 1)
                    entries.append(YAMLEntry(key: YAMLNode(.scalar(key, style: .doubleQuoted), mark: childNode.mark), value: childNode))
                }
                return YAMLNode(.mapping(entries), mark: mark)
            case .array:
                guard let array = value.array else { break }
                var elements: [YAMLNode] = []
                for element in array { elements.append(try node(element, path: path, depth: depth + 1)) }
                return YAMLNode(.sequence(elements), mark: mark)
            case .string:
                return YAMLNode(.scalar(value.string ?? "", style: .doubleQuoted), mark: mark)
            case .bool:
                return YAMLNode(.scalar(value.bool == true ? "true" : "false", style: .plain), mark: mark)
            case .int:
                return YAMLNode(.scalar(value.int.map(String.init) ?? "", style: .plain), mark: mark)
            case .double:
                return YAMLNode(.scalar(value.double.map { "\($0)" } ?? "", style: .plain), mark: mark)
            case .date:
                guard let date = value.date else { break }
                return YAMLNode(.scalar(Self.text(date), style: .plain), mark: mark)
            case .time:
                guard let time = value.time else { break }
                return YAMLNode(.scalar(Self.text(time), style: .plain), mark: mark)
            case .dateTime:
                guard let dateTime = value.dateTime else { break }
                let zone = dateTime.offset.map { offset in
                    offset.offset == 0 ? "Z" : String(format: "%@%02d:%02d", offset.offset < 0 ? "-" : "+", abs(offset.offset) / 60, abs(offset.offset) % 60)
                } ?? ""
                return YAMLNode(.scalar("\(Self.text(dateTime.date))T\(Self.text(dateTime.time))\(zone)", style: .plain), mark: mark)
            }
            throw FrontMatterProblem(line: mark.line, "a TOML value of type \(value.type) could not be read")
        }

        static func text(_ date: TOMLDate) -> String {
            String(format: "%04d-%02d-%02d", date.year, date.month, date.day)
        }

        static func text(_ time: TOMLTime) -> String {
            let base = String(format: "%02d:%02d:%02d", time.hour, time.minute, time.second)
            return time.nanoSecond == 0 ? base : base + String(format: ".%09d", time.nanoSecond)
        }
    }

    /// The line each key path is written on: `key = …` lines under the `[table]` headers of the text. Keys written
    /// with dots or quotes are looked up by their first part; a value that cannot be placed gets the first line.
    private struct KeyLines {
        private var lines: [String: Int] = [:]
        private let firstLine: Int

        init(_ text: Substring, firstLine: Int) {
            self.firstLine = firstLine
            var table: [String] = []
            var cursor = LineCursor(text)
            var number = firstLine
            while let line = cursor.next() {
                defer { number += 1 }
                let content = line.text.drop { $0 == " " || $0 == "\t" }
                if content.hasPrefix("[") {
                    let name = content.drop { $0 == "[" }.prefix { $0 != "]" }
                    table = name.split(separator: ".").map { Self.bare($0) }
                    lines[table.joined(separator: "\u{0}"), default: number] = number
                } else if let equals = content.firstIndex(of: "="), !content.hasPrefix("#") {
                    let key = content[..<equals].split(separator: ".").first.map { Self.bare($0) } ?? ""
                    lines[(table + [key]).joined(separator: "\u{0}"), default: number] = number
                }
            }
        }

        func line(of path: [String]) -> Int {
            var path = path
            while !path.isEmpty {
                if let line = lines[path.joined(separator: "\u{0}")] { return line }
                path.removeLast()
            }
            return firstLine
        }

        private static func bare(_ key: Substring) -> String {
            key.trimmingCharacters(in: CharacterSet(charactersIn: " \t\"'"))
        }
    }
}
