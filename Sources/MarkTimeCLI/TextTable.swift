import MarkTimeCore

/// Left-aligned columns padded to their widest cell; control characters in a cell are
/// shown escaped, so no name or note can break the table or the terminal.
struct TextTable {
    var header: [String]
    var rows: [[String]] = []

    func render() -> String {
        let all = ([header] + rows).map { $0.map(Text.escaped) }
        let widths = header.indices.map { i in all.map { $0[i].count }.max() ?? 0 }
        return all.map { row in
            row.indices.map { i in i == row.count - 1 ? row[i] : row[i].padding(to: widths[i]) }
                .joined(separator: "  ").trailingSpacesRemoved
        }.joined(separator: "\n")
    }
}

extension String {
    func padding(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }

    var trailingSpacesRemoved: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
