/// A user input that the core refused, with one sentence that names the problem and the fix.
public struct InputError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
