import CEvdev
import Foundation
import RigSupport

/// A real kernel input device with the button's keys (KEY_ENTER, and KEY_SPACE to hold
/// while it presses), or the keys of a keypad, made
/// through libevdev's uinput API, and a reader on its own evdev node that reads back the
/// kernel's CLOCK_MONOTONIC timestamp of each key event the rig injects.
final class VirtualButton {
    let devnode: String
    private let template: OpaquePointer
    private let uinput: OpaquePointer
    private let reader: OpaquePointer
    private let fd: Int32
    private var link: String?

    /// With `autorepeat`, the kernel repeats a held key (250 ms delay, 33 ms period).
    init(name: String = "marktime rig button", keys: [Int32] = [KEY_ENTER, KEY_SPACE], autorepeat: Bool = true) throws {
        guard let dev = libevdev_new() else { throw RigError("libevdev_new failed") }
        template = dev
        libevdev_set_name(dev, name)
        libevdev_enable_event_type(dev, UInt32(EV_KEY))
        for key in keys { libevdev_enable_event_code(dev, UInt32(EV_KEY), UInt32(key), nil) }
        if autorepeat { libevdev_enable_event_type(dev, UInt32(EV_REP)) }
        var ui: OpaquePointer?
        let rc = cevdev_uinput_create(dev, &ui)
        guard rc == 0, let ui else { throw RigError("cannot create a uinput device: \(String(cString: strerror(-rc)))") }
        uinput = ui
        guard let node = libevdev_uinput_get_devnode(ui) else { throw RigError("uinput device has no /dev/input node") }
        let path = String(cString: node)
        devnode = path
        var opened: Int32 = -1
        _ = eventually(within: 5) {
            opened = open(path, O_RDONLY | O_NONBLOCK)
            return opened >= 0
        }
        guard opened >= 0 else { throw RigError("cannot open \(devnode): \(String(cString: strerror(errno)))") }
        fd = opened
        var r: OpaquePointer?
        guard libevdev_new_from_fd(fd, &r) == 0, let r else { throw RigError("libevdev cannot read \(devnode)") }
        reader = r
        guard libevdev_set_clock_id(reader, CLOCK_MONOTONIC) == 0 else { throw RigError("cannot select CLOCK_MONOTONIC on \(devnode)") }
    }

    /// Points `path` (the udev rule's `/dev/input/marktime`) at this device, as udev would.
    func link(as path: String) throws {
        unlink(path)
        guard symlink((devnode as NSString).lastPathComponent, path) == 0 else {
            throw RigError("cannot link \(path): \(String(cString: strerror(errno)))")
        }
        link = path
    }

    /// Unplugs it: the link goes first, as udev removes it, then the device.
    func destroy() {
        if let link { unlink(link) }
        link = nil
        libevdev_free(reader)
        close(fd)
        libevdev_uinput_destroy(uinput)
        libevdev_free(template)
    }

    /// Writes one key event and a SYN_REPORT; returns the kernel's timestamp of it,
    /// read back from the device's own evdev node (nanoseconds, CLOCK_MONOTONIC).
    @discardableResult
    func key(_ value: Int32, code: Int32 = KEY_ENTER) throws -> Int64 {
        write(value, key: code)
        return try readBack(value, code: code)
    }

    /// A bouncing contact: key-down, key-up, and `gap` seconds later key-down and key-up
    /// again, written before anything is read back. Returns both key-downs' timestamps.
    func bounce(gap: Double) throws -> (Int64, Int64) {
        write(1)
        write(0)
        Thread.sleep(forTimeInterval: gap)
        write(1)
        write(0)
        let first = try readBack(1)
        let second = try readBack(1)
        return (first, second)
    }

    private func write(_ value: Int32, key: Int32 = KEY_ENTER) {
        libevdev_uinput_write_event(uinput, UInt32(EV_KEY), UInt32(key), value)
        libevdev_uinput_write_event(uinput, UInt32(EV_SYN), UInt32(SYN_REPORT), 0)
    }

    /// Types `keys` as a keypad's are typed: each down, then up. Returns the monotonic
    /// time just before the first (the daemon grabs a keypad, so nothing is read back).
    @discardableResult
    func type(_ keys: [Int32]) -> Int64 {
        let t = monotonicNow()
        for key in keys {
            write(1, key: key)
            write(0, key: key)
        }
        return t
    }

    /// Number-pad key codes (linux/input-event-codes.h; the C header's macros are not all imported).
    static let (kp0, kp1, kp2, kp3, kp4, kp5, kp6, kp7, kp8, kp9): (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32)
        = (82, 79, 80, 81, 75, 76, 77, 71, 72, 73)
    static let (kpDot, kpEnter, kpPlus, kpMinus, backspace): (Int32, Int32, Int32, Int32, Int32) = (83, 96, 78, 74, 14)

    /// The keys a keypad has: its digits, point, Enter, plus and minus.
    static let keypadKeys: [Int32] = [kp0, kp1, kp2, kp3, kp4, kp5, kp6, kp7, kp8, kp9, kpDot, kpEnter, kpPlus, kpMinus, backspace]

    private func readBack(_ value: Int32, code: Int32 = KEY_ENTER) throws -> Int64 {
        guard let t = try readBack({ $0.type == UInt16(EV_KEY) && $0.code == UInt16(code) && $0.value == value }) else {
            throw RigError("the key event (value \(value)) never came back from \(devnode)")
        }
        return t
    }

    /// A press: key-down, then key-up. Returns the key-down's kernel timestamp.
    func press() throws -> Int64 {
        let down = try key(1)
        try key(0)
        return down
    }

    /// A press whose timestamps are read back only `settle` seconds later, so the rig
    /// does nothing while the daemon handles it: a measurement then times the daemon,
    /// not the daemon sharing the emulated CPUs with the rig's own reader.
    func press(settle: Double) throws -> Int64 {
        write(1)
        write(0)
        Thread.sleep(forTimeInterval: settle)
        let down = try readBack(1)
        _ = try readBack(0)
        return down
    }

    /// Key events of the held key that the kernel's autorepeat made, while waiting `seconds`.
    func repeats(during seconds: Double) throws -> Int {
        var count = 0
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try readBack({ $0.type == UInt16(EV_KEY) && $0.value == 2 }, timeout: 0.05) != nil { count += 1 }
        }
        return count
    }

    /// Reads and drops everything queued on the rig's own reader, resyncing it if its
    /// buffer overflowed, so that the next event written is read back as itself.
    /// (After an overflow, libevdev skips events up to the next SYN_REPORT and reports
    /// the key's state only as a synthesized event: a key-up written then is never read.)
    func discardPending() {
        var ev = cevdev_event()
        while true {
            let rc = cevdev_next_event(reader, cevdev_read_flag_normal, &ev)
            if rc == cevdev_status_sync {
                while cevdev_next_event(reader, cevdev_read_flag_sync, &ev) == cevdev_status_sync {}
            } else if rc != cevdev_status_success {
                return
            }
        }
    }

    /// Reads the node until an event matches; its timestamp, or nil after `timeout` seconds.
    private func readBack(_ matches: (cevdev_event) -> Bool, timeout: Double = 5) throws -> Int64? {
        let deadline = Date().addingTimeInterval(timeout)
        var ev = cevdev_event()
        while Date() < deadline {
            let rc = cevdev_next_event(reader, cevdev_read_flag_normal, &ev)
            if rc == cevdev_status_sync {
                while cevdev_next_event(reader, cevdev_read_flag_sync, &ev) == cevdev_status_sync {}
                continue
            }
            if rc == -EAGAIN {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&p, 1, 20)
                continue
            }
            guard rc == cevdev_status_success else { throw RigError("reading \(devnode): \(String(cString: strerror(-rc)))") }
            if matches(ev) { return ev.sec * 1_000_000_000 + ev.usec * 1_000 }
        }
        return nil
    }
}

/// A rig failure, worded for the console.
struct RigError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The input's own timing: a person's pause between two actions (presses, an unplug and a
/// plug), a receiver's pulse after its fix, as the bounce's gap is. A wait for a result is
/// never a pace: it is a condition (`eventually`) or a barrier (a later press, once stored).
func pace(_ seconds: Double) {
    Thread.sleep(forTimeInterval: seconds)
}
