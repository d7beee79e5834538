import MarkTimeCore
import Testing

@Suite("Text for HTML, XML and SVG")
struct MarkupTextTests {
    @Test func theFiveReservedCharactersAreEscaped() {
        // Given a note with every character markup reserves, between others
        let note = #"Sun <LL> & "Moon" 'UL'"#
        // When it is made safe for markup
        let safe = Text.markup(note)
        // Then each is escaped and nothing else changes
        #expect(safe == "Sun &lt;LL&gt; &amp; &quot;Moon&quot; &#39;UL&#39;")
    }

    @Test func textOutsideASCIIKeepsItsCharacters() {
        // Given a position in DDM, with a degree sign and an apostrophe
        // When it is made safe for markup
        // Then the degree sign is kept and the apostrophe escaped
        #expect(Text.markup("27° 22'.84 S") == "27° 22&#39;.84 S")
        #expect(Text.markup("Łódź ☀︎ 東京") == "Łódź ☀︎ 東京")
    }

    @Test func textWithNothingReservedComesBackAsItIs() {
        // Given text with no reserved character, and a substring of a longer text
        // When each is made safe
        // Then each is unchanged
        #expect(Text.markup("2025-11-22 08:13:20.654") == "2025-11-22 08:13:20.654")
        #expect(Text.markup("a<b"[...].dropFirst(2)) == "b")
        #expect(Text.markup("") == "")
    }
}
