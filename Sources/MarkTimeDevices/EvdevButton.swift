import CEvdev
import Foundation
import Glibc
import Logging
import MarkTimeCore
import MarkTimeSystem
import Synchronization

/// What a button source reports.
public enum ButtonSignal: Hashable, Sendable {
    /// An event as the kernel queued it.
    case event(InputEvent)
    /// The kernel's buffer overflowed (`SYN_DROPPED`, with its timestamp): events were thrown away.
    case dropped(at: Int64)
    /// A state change libevdev synthesised to resync after a drop: not a live event.
    case replayed(InputEvent)
    /// The resync is over.
    case resynced
}

/// A source of raw key events; the real one is an evdev device.
public protocol ButtonSource: Sendable {
    /// Starts listening; `signal` gets every input event, `state` each change of state.
    func start(_ signal: @escaping @Sendable (ButtonSignal) -> Void, state: @escaping @Sendable (String) -> Void)
    func stop()
}

/// An evdev button through libevdev, on its own thread.
///
/// The device is opened `O_RDONLY|O_NONBLOCK`, set to CLOCK_MONOTONIC
/// (`libevdev_set_clock_id`), and grabbed (`EVIOCGRAB`) unless told not to.
/// Events are drained until `-EAGAIN`, resyncing after SYN_DROPPED. When the
/// device is absent or unplugged, inotify on its folder says when it is back.
public final class EvdevButton: ButtonSource, Sendable {
    public let path: String
    let grab: Bool
    let logger: Logger
    /// What the device is, in the log: `button`, `keypad`.
    let role: String
    private let thread: PollThread

    /// `name` is the thread's (`marktime-button`, `marktime-keypad`).
    public init(path: String, grab: Bool, logger: Logger, name: String = "marktime-button") throws(DeviceError) {
        self.path = path
        self.grab = grab
        self.logger = logger
        role = name.hasPrefix("marktime-") ? String(name.dropFirst("marktime-".count)) : name
        do { thread = try PollThread(name: name) } catch { throw DeviceError(error) }
    }

    public func start(_ event: @escaping @Sendable (ButtonSignal) -> Void, state: @escaping @Sendable (String) -> Void) {
        thread.start { [self] t in run(t, event: event, state: state) }
    }

    public func stop() { thread.stop() }

    /// The state while the device cannot be opened, worded for `marktime status`.
    static func waiting(_ error: DeviceError) -> String {
        switch error.errno {
        case ENOENT: "waiting for it to be plugged in"
        case EACCES: "waiting: permission denied (the daemon's user needs group input)"
        default: "waiting: \(error.description)"
        }
    }

    private func run(_ t: PollThread, event: (ButtonSignal) -> Void, state: (String) -> Void) {
        let folder = (path as NSString).deletingLastPathComponent
        guard let watch = try? Kernel.inotify() else {
            state("cannot watch \(folder)")
            return
        }
        defer { Descriptor.close(watch) }
        let mask = UInt32(IN_CREATE | IN_ATTRIB | IN_MOVED_TO | IN_DELETE)
        var watching = (try? Kernel.watch(watch, folder, mask: mask)) != nil
        var lastState = ""
        func say(_ s: String, _ log: () -> Void) {
            guard s != lastState else { return }
            lastState = s
            log()
            state(s)
        }
        while true {
            if !watching { watching = (try? Kernel.watch(watch, folder, mask: mask)) != nil }
            do {
                let device = try Device(path: path, grab: grab)
                say("ready: \(device.name)") { logger.info("\(role) ready", metadata: ["device": "\(path)", "name": "\(device.name)"]) }
                let stopped = listen(device, t, event: event)
                device.close()
                if stopped { return }
                say("unplugged; waiting for it") { logger.warning("\(role) unplugged; waiting for it", metadata: ["device": "\(path)"]) }
            } catch {
                say(Self.waiting(error)) {
                    logger.notice("waiting for the \(role)", metadata: ["device": "\(path)", "reason": "\(error.description)"])
                }
            }
            // Sleep until something changes in the folder (or, without a folder, a slow retry).
            if waitForChange(t, watch: watch, watching: watching) { return }
        }
    }

    /// Blocks until the folder changes; true when asked to stop.
    private func waitForChange(_ t: PollThread, watch: Int32, watching: Bool) -> Bool {
        let woke = try? t.wait([watch], timeout: watching ? nil : .seconds(5))
        if woke == .stopped || woke == nil { return true }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ((try? Kernel.read(watch, into: &buffer, "inotify")) ?? 0) > 0 {}
        // udev sets permissions and the symlink just after the node appears: 50 ms for it,
        // on the thread's own wait, which a stop ends at once.
        return (try? t.wait([], timeout: .milliseconds(50))) != .timedOut
    }

    /// Reads until the device goes away (false) or we are asked to stop (true).
    private func listen(_ device: Device, _ t: PollThread, event: (ButtonSignal) -> Void) -> Bool {
        while true {
            switch try? t.wait([device.fd]) {
            case .stopped: return true
            case .ready(let revents):
                if revents[0] & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 && revents[0] & Int16(POLLIN) == 0 { return false }
                if !device.drain(event) { return false }
            case .timedOut: continue
            case nil: return false
            }
        }
    }

    /// One open libevdev device.
    final class Device {
        let fd: Int32
        let dev: OpaquePointer
        let name: String

        init(path: String, grab: Bool) throws(DeviceError) {
            let fd = try syscall { () throws(SystemError) in try Kernel.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
            self.fd = fd
            var d: OpaquePointer? = nil
            do {
                try negativeErrnoCall("libevdev_new_from_fd \(path)") { libevdev_new_from_fd(fd, &d) }
            } catch {
                Descriptor.close(fd)
                throw DeviceError("\(path) is not an input device (\(error))", errno: error.errno.rawValue)
            }
            guard let d else {
                Descriptor.close(fd)
                throw DeviceError("\(path) is not an input device")
            }
            dev = d
            name = String(cString: libevdev_get_name(d))
            do {
                try negativeErrnoCall("libevdev_set_clock_id \(path)") { libevdev_set_clock_id(d, CLOCK_MONOTONIC) }
            } catch {
                libevdev_free(d)
                Descriptor.close(fd)
                throw DeviceError("cannot select CLOCK_MONOTONIC on \(path) (\(error))", errno: error.errno.rawValue)
            }
            if grab {
                do {
                    try negativeErrnoCall("EVIOCGRAB \(path)") { cevdev_grab(d, 1) }
                } catch {
                    libevdev_free(d)
                    Descriptor.close(fd)
                    throw DeviceError("cannot grab \(path): another program holds it (set button.grab=false to share it)",
                                      errno: error.errno.rawValue)
                }
            }
        }

        func close() {
            libevdev_free(dev)
            Descriptor.close(fd)
        }

        /// Reads until -EAGAIN. After SYN_DROPPED it reports the drop, then the events
        /// libevdev synthesises to resync (`LIBEVDEV_READ_FLAG_SYNC`) as replayed, never
        /// as live. False when the device is gone.
        func drain(_ signal: (ButtonSignal) -> Void) -> Bool {
            var e = cevdev_event()
            var flags = cevdev_read_flag_normal
            while true {
                let rc = cevdev_next_event(dev, flags, &e)
                let event = InputEvent(type: e.type, code: e.code, value: e.value, nanoseconds: e.sec * 1_000_000_000 + e.usec * 1000)
                if rc == -EAGAIN {
                    if flags == cevdev_read_flag_sync {
                        flags = cevdev_read_flag_normal
                        signal(.resynced)
                        continue
                    }
                    return true
                }
                if rc < 0 { return rc == -EINTR }
                if flags == cevdev_read_flag_sync {
                    signal(.replayed(event))
                } else if rc == cevdev_status_sync {
                    flags = cevdev_read_flag_sync
                    signal(.dropped(at: event.nanoseconds))
                } else {
                    signal(.event(event))
                }
            }
        }
    }
}

/// An input device that can send keys, for `marktime buttons`.
public struct KeyDevice: Hashable, Sendable {
    public var path: String
    public var name: String
    /// Key names such as `KEY_ENTER`, the first few the device declares.
    public var keys: [String]
    public var keyCount: Int
}

public enum InputDevices {
    /// Every `/dev/input/event*` that declares EV_KEY, sorted by path. Devices that
    /// cannot be opened are returned in `unreadable` with the reason.
    public static func keyDevices(folder: String = "/dev/input", sample: Int = 6) -> (devices: [KeyDevice], unreadable: [(String, String)]) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasPrefix("event") }
            .sorted { (Int($0.dropFirst(5)) ?? 0) < (Int($1.dropFirst(5)) ?? 0) }
        var devices: [KeyDevice] = [], unreadable: [(String, String)] = []
        for name in names {
            let path = folder + "/" + name
            let fd: Int32
            do { fd = try Kernel.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) } catch {
                unreadable.append((path, String(cString: strerror(error.errno.rawValue))))
                continue
            }
            defer { Descriptor.close(fd) }
            var d: OpaquePointer? = nil
            guard libevdev_new_from_fd(fd, &d) == 0, let d else { continue }
            defer { libevdev_free(d) }
            guard libevdev_has_event_type(d, UInt32(EV_KEY)) != 0 else { continue }
            var keys: [String] = []
            var count = 0
            for code in 0...UInt32(KEY_MAX) where libevdev_has_event_code(d, UInt32(EV_KEY), code) != 0 {
                count += 1
                if keys.count < sample {
                    keys.append(libevdev_event_code_get_name(UInt32(EV_KEY), code).map { String(cString: $0) } ?? "\(code)")
                }
            }
            devices.append(KeyDevice(path: path, name: String(cString: libevdev_get_name(d)), keys: keys, keyCount: count))
        }
        return (devices, unreadable)
    }
}
