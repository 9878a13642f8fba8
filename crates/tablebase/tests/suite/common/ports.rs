//! Free ports of 127.0.0.1 for the processes of a cluster a test starts
//! (this crate's loopback tests and `qi-cli`'s `qi tb generate --hosts`
//! tests include this file).

use std::net::TcpListener;
use std::sync::atomic::{AtomicU32, Ordering};

/// `processes` addresses of 127.0.0.1 on distinct ports free now.
///
/// The ports lie below the kernel's range for outgoing connections (from
/// 32768 on Linux), so a connection another test opens between this call
/// and the cluster's listen cannot take one (a port the kernel handed out
/// for `bind(0)` could be: a test failed so once, `Address already in
/// use`). A counter keeps the tests of this program apart, the process id
/// two programs run at once.
pub fn loopback_hosts(processes: usize) -> Vec<String> {
    const SPAN: u32 = 192;
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let base = 20_000 + (std::process::id() % 64) * SPAN;
    let mut held = Vec::new();
    for _ in 0..SPAN {
        if held.len() == processes {
            break;
        }
        let port = base + NEXT.fetch_add(1, Ordering::Relaxed) % SPAN;
        let port = u16::try_from(port).expect("ports below 32768");
        if let Ok(listener) = TcpListener::bind(("127.0.0.1", port)) {
            held.push(listener);
        }
    }
    assert_eq!(held.len(), processes, "free ports on 127.0.0.1");
    held.iter()
        .map(|l| l.local_addr().expect("a bound address").to_string())
        .collect()
}
