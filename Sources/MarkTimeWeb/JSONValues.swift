import Foundation
import MarkTimeCore

/// Text made safe inside HTML, as the templates escape it (`&`, `<`, `>`, `"`, `'`).
enum HTML {
    static func escaped(_ text: String) -> String { Text.markup(text) }
}
