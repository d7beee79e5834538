import MarkTimeDevices
import Testing

/// The RTC adapter's refusals, on a machine without an RTC: each names the path, the cause
/// and the fix, and errno (the daemon logs it once and tries again in 30 s).
@Suite("The RTC's refusals")
struct RTCClockTests {
    func refusal(_ path: String) -> DeviceError? {
        do {
            _ = try RTCClock(path: path).read()
            return nil
        } catch {
            return error
        }
    }

    @Test func aMissingRTCSaysHowToGetOneOrTurnItOff() throws {
        let e = try #require(refusal("/nonexistent/rtc9"))
        #expect(e.description == "/nonexistent/rtc9 does not exist: this machine has no RTC there (a Pi 3, 4 or Zero has none; a DS3231 HAT needs "
            + "`dtoverlay=i2c-rtc,ds3231` in config.txt); set clock.rtc to \"\" to stop reading it")
        #expect(e.errno == 2)
    }

    @Test func aFileThatIsNoRTCIsRefusedByItsIoctl() throws {
        // /dev/null takes neither RTC_UIE_ON nor RTC_RD_TIME
        let e = try #require(refusal("/dev/null"))
        #expect(e.description == "/dev/null: RTC_RD_TIME failed: Inappropriate ioctl for device")
        #expect(e.errno == 25)
    }

    @Test func aPathWithATrailingSlashIsNoDevice() throws {
        let e = try #require(refusal("/dev/null/"))
        #expect(e.description == "/dev/null/: open failed: Not a directory")
        #expect(e.errno == 20)
    }
}
