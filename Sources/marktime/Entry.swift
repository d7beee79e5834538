import MarkTimeCLI

/// The `marktime` binary: all logic lives in `MarkTimeCLI`.
@main
enum Entry {
    static func main() async {
        await MarkTime.main()
    }
}
