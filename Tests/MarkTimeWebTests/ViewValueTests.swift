import Mustache
import Testing
@testable import MarkTimeWeb

/// The page's typed views as the templates and the live messages read them.
@Suite("Typed views: encoded for the templates and the live messages")
struct ViewValueTests {
    struct Row: Encodable {
        var name: String
        var count: Int64
    }

    struct View: Encodable {
        var title: String
        var error: String?
        var ratio: Double
        var shown: Bool
        var rows: [Row]
        var tags: [String: String]
    }

    @Test func aViewsFieldsAreEncodedAndANilOneIsLeftOut() throws {
        // Given a view with a nil field, a list of structs and a dictionary
        let view = View(title: "Fix", error: nil, ratio: 0.5, shown: true, rows: [Row(name: "Vega", count: 2)], tags: ["k": "v"])
        // When it is encoded
        let value = try ViewValue(encoding: view)
        // Then each field is there with its type, and the nil one is not
        #expect(value == .fields([
            "title": .text("Fix"), "ratio": .number(0.5), "shown": .flag(true),
            "rows": .list([.fields(["name": .text("Vega"), "count": .int(2)])]), "tags": .fields(["k": .text("v")]),
        ]))
    }

    @Test func aMessageIsJSONWithItsKeysSortedAndAnExplicitNullKept() {
        // Given the quick entry's message without a position (its `quick` is null on purpose)
        struct Message: Encodable {
            var type = "quick"
            var quick: Int?
            var b = 1

            func encode(to encoder: any Encoder) throws {
                enum Keys: String, CodingKey { case type, quick, b }
                var c = encoder.container(keyedBy: Keys.self)
                try c.encode(type, forKey: .type)
                try c.encode(quick, forKey: .quick)
                try c.encode(b, forKey: .b)
            }
        }
        // When it is written
        let text = LiveConnection.json(Message())
        // Then the keys are sorted and the null is written
        #expect(text == #"{"b":1,"quick":null,"type":"quick"}"#)
    }

    @Test func aSectionOnANilFieldStaysClosedAndAFlagOpensOne() throws {
        // Given a template with sections on a nil field, a flag and a list
        let template = try MustacheTemplate(string: "{{#error}}E:{{error}}{{/error}}{{#shown}}S{{/shown}}{{#rows}}[{{name}} {{count}}]{{/rows}}{{title}}")
        let view = View(title: "T", error: nil, ratio: 1, shown: true, rows: [Row(name: "a", count: 1), Row(name: "b", count: 2)], tags: [:])
        // When it is rendered from the encoded view
        let html = template.render(try ViewValue(encoding: view))
        // Then the nil section is closed, the flag's is open, and the list repeats
        #expect(html == "S[a 1][b 2]T")
    }

    @Test func aNameMissingInsideASectionIsLookedUpFurtherOut() throws {
        // Given a row without a title inside a view with one
        let template = try MustacheTemplate(string: "{{#rows}}{{name}}:{{title}};{{/rows}}")
        let view = View(title: "outer", error: nil, ratio: 1, shown: false, rows: [Row(name: "r", count: 0)], tags: [:])
        // When it is rendered
        let html = template.render(try ViewValue(encoding: view))
        // Then the row's section reads the view's title, as Mustache's context stack does
        #expect(html == "r:outer;")
    }

    @Test func theAlignmentDataKeepsItsTuplesAndItsNullSkies() {
        // Given the shape of one row of the People page's script data
        struct Segment: Encodable {
            func encode(to encoder: any Encoder) throws {
                var tuple = encoder.unkeyedContainer()
                try tuple.encode(0)
                try tuple.encode("AEST")
                try tuple.encode(false)
            }
        }
        struct Data: Encodable {
            var segments = [Segment()]
            var sky: [[String]?] = [["day", "#ffffff"], nil]
        }
        // When it is written
        let text = LiveConnection.json(Data())
        // Then a tuple stays a list of mixed values and a missing sky is null
        #expect(text == ##"{"segments":[[0,"AEST",false]],"sky":[["day","#ffffff"],null]}"##)
    }
}
