import CMosquitto
import Foundation
import MarkTimeSystem

/// A TLS handshake of our own with the broker, made only after a connection ended before
/// the broker answered, to say why: libmosquitto words every TLS failure as "A TLS error
/// occurred.", and TLS against a plain port (or plain MQTT against a TLS port) as a lost
/// connection.
enum TLSProbe {
    /// How the handshake went.
    enum Outcome: Hashable {
        case succeeded
        /// OpenSSL refused the broker's certificate: its `X509_V_ERR_…` code.
        case certificate(Int)
        /// The other end answered, but not with TLS.
        case notTLS
        /// Connected, but no answer to the handshake within the time allowed.
        case noAnswer
        /// No TCP connection (the lost connection says this already).
        case unreachable
        /// The CA file holds no certificate OpenSSL can read.
        case unreadableCA
        case failed(String)
    }

    /// A handshake with `host:port`, checking its certificate against `caFile` and its
    /// name against `host` as libmosquitto does; without `caFile`, only whether it speaks TLS.
    static func handshake(host: String, port: Int, caFile: String?, seconds: Int = 10) -> Outcome {
        guard let socket = try? TCPSocket(host: host, port: port, seconds: seconds) else { return .unreachable }
        guard let context = SSL_CTX_new(TLS_client_method()) else { return .failed("OpenSSL cannot make a TLS context") }
        defer { SSL_CTX_free(context) }
        if let caFile, SSL_CTX_load_verify_locations(context, caFile, nil) != 1 { return .unreadableCA }
        guard let ssl = SSL_new(context) else { return .failed("OpenSSL cannot make a TLS session") }
        defer { SSL_free(ssl) }
        SSL_set_fd(ssl, socket.fd)
        if caFile != nil {
            SSL_set_verify(ssl, SSL_VERIFY_PEER, nil)
            if isAddress(host) {
                X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host)
            } else {
                SSL_set1_host(ssl, host)
                marktime_ssl_server_name(ssl, host)
            }
        } else {
            SSL_set_verify(ssl, SSL_VERIFY_NONE, nil)
        }
        ERR_clear_error()
        errno = 0
        let rc = SSL_connect(ssl)
        if rc == 1 {
            SSL_shutdown(ssl)
            return .succeeded
        }
        let verified = SSL_get_verify_result(ssl)
        if verified != X509_V_OK { return .certificate(verified) }
        let kind = SSL_get_error(ssl, rc)
        let error = ERR_peek_error()
        let reason = marktime_err_reason(error)
        if kind == SSL_ERROR_SYSCALL, errno == EAGAIN || errno == EWOULDBLOCK { return .noAnswer }
        if kind == SSL_ERROR_ZERO_RETURN || (kind == SSL_ERROR_SYSCALL && error == 0)
            || [SSL_R_WRONG_VERSION_NUMBER, SSL_R_UNEXPECTED_EOF_WHILE_READING, SSL_R_PACKET_LENGTH_TOO_LONG].contains(reason) {
            return .notTLS
        }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(error, &text, text.count)
        return .failed(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// What the outcome means for a broker at `host:port`, in one sentence that says what
    /// to do; nil when it adds nothing to libmosquitto's reason.
    static func words(_ outcome: Outcome, host: String, port: Int, caFile: String?) -> String? {
        let at = "\(host):\(port)"
        guard let caFile else {
            return outcome == .succeeded
                ? "\(at) wants TLS: set share.tls_ca to the broker's CA certificate, or use its plain port (usually 1883)" : nil
        }
        switch outcome {
        case .certificate(let code):
            switch Int32(code) {
            case X509_V_ERR_CERT_HAS_EXPIRED:
                return "TLS: the broker's certificate at \(at) has expired: renew it on the broker"
            case X509_V_ERR_CERT_NOT_YET_VALID:
                return "TLS: the broker's certificate at \(at) is not valid yet: check this clock and the broker's"
            case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH:
                return "TLS: the broker's certificate is not for \(host): set share.broker to a name the certificate carries"
            case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT,
                 X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE, X509_V_ERR_CERT_UNTRUSTED,
                 X509_V_ERR_CERT_SIGNATURE_FAILURE:
                return "TLS: the broker's certificate at \(at) is not signed by the CA in share.tls_ca (\(caFile)): give the CA that signed it"
            default:
                return "TLS: the broker's certificate at \(at) was refused: \(String(cString: X509_verify_cert_error_string(code)))"
            }
        case .notTLS:
            return "TLS: \(at) does not answer in TLS: it looks like the broker's plain port (usually 1883); its TLS port is usually 8883"
        case .noAnswer:
            return "TLS: \(at) did not answer the TLS handshake: is it the broker's plain port (usually 1883)? Its TLS port is usually 8883"
        case .unreadableCA:
            return "share.tls_ca \(caFile) holds no certificate OpenSSL can read: give the broker's CA certificate as a PEM file"
        case .failed(let text):
            return "TLS with \(at) failed: \(text)"
        case .succeeded, .unreachable:
            return nil
        }
    }

    private static func isAddress(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
