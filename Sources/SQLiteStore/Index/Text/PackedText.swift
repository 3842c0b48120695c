import CZstd
import Indexing
import PluginAPI

/// An item's description as `item` stores it: as written (SQLite `TEXT`), or packed (a `BLOB`) with a Zstandard
/// dictionary the index trained on its own descriptions (``TextPacking``): a byte saying how (``format``), the
/// dictionary's id in `text_dictionary` and the text's length in bytes (varints), then a frame without the magic number,
/// dictionary id, content size or checksum its header would otherwise repeat for every row.
///
/// Every statement reads the column through the `item_text` function (``selected(_:)``, ``TextUnpacking``), which gives
/// the text back whichever way it is stored.
enum PackedText {
    /// The first byte of a packed value: Zstandard with a dictionary.
    static let format: UInt8 = 1
    /// Text shorter than this stays as it is: a frame's header and the dictionary's reference would take most of what
    /// packing saves.
    static let minPackedBytes = 48
    /// The most a packed value may hold: the longest description items may have (``ItemLimits/maxDescriptionBytes``);
    /// a longer one (a caller's own limits) is stored as it is. A larger length in a header is damage, refused before
    /// anything is allocated for it.
    static let maxTextBytes = ItemLimits.standard.maxDescriptionBytes
    /// The lengths in bytes of the texts worth packing, from ``minPackedBytes`` to ``maxTextBytes``.
    static let packedLengths = minPackedBytes...maxTextBytes
    /// The SQL condition of an `item` row whose description is stored as written and of a length worth packing.
    static let storedPlainWorthPacking = """
        typeof(contentDescription) = 'text' AND length(CAST(contentDescription AS BLOB)) BETWEEN \(packedLengths.lowerBound) AND \(packedLengths.upperBound)
        """
    /// The level packing compresses at: with the bench's dictionary, zstd 1.5.4's command line packs its descriptions
    /// 2.65 times at 3, 2.22 at 1 and 2.31 at 6.
    static let level: Int32 = 3

    /// The SQL expression reading `column` (a packed or plain description) as text.
    static func selected(_ column: String) -> String { "item_text(\(column))" }

    /// The header of a value packed with dictionary `dictionary` holding `length` bytes of text.
    static func header(dictionary: Int64, length: Int) -> [UInt8] {
        var header: [UInt8] = [format]
        appendVarint(UInt64(dictionary), to: &header)
        appendVarint(UInt64(length), to: &header)
        return header
    }

    /// What a packed value's header says, and where its frame starts.
    struct Header: Equatable {
        var dictionary: Int64
        var length: Int
        var frameStart: Int
    }

    /// Reads the header of `bytes`; `nil` when it is not one ``header(dictionary:length:)`` writes, or says no text or more
    /// than ``maxTextBytes``.
    static func readHeader(_ bytes: UnsafeRawBufferPointer) -> Header? {
        guard bytes.count >= 3, bytes[0] == format else { return nil }
        var position = 1
        guard let dictionary = readVarint(bytes, at: &position), dictionary <= UInt64(Int64.max),
            let length = readVarint(bytes, at: &position), length >= 1, length <= UInt64(maxTextBytes), position < bytes.count
        else { return nil }
        return Header(dictionary: Int64(dictionary), length: Int(length), frameStart: position)
    }

    private static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// A varint of at most ten bytes at `position`, which moves past it; `nil` when it runs past the end or is longer.
    private static func readVarint(_ bytes: UnsafeRawBufferPointer, at position: inout Int) -> UInt64? {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 7) {
            guard position < bytes.count else { return nil }
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << UInt64(shift)
            if byte < 0x80 { return value }
        }
        return nil
    }
}

extension SearchColumn {
    /// The field as a statement reads it from `item`: the description through `item_text` (``PackedText``).
    var selected: String { self == .contentDescription ? PackedText.selected("item.contentDescription") : "item.\(rawValue)" }
}
