//! The public functions against the known answers of tests/kat (with whichever kernel the
//! process chose: scripts/test runs this once per kernel the CPU runs, forced).

use std::fs;
use std::path::PathBuf;

fn kat_file(relative: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/kat")
        .join(relative);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn hex(text: &str) -> Vec<u8> {
    let text = text.trim();
    (0..text.len() / 2)
        .map(|i| u8::from_str_radix(&text[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

/// The records of a CAVP or XKCP file: the key = value lines between blank lines, each
/// record with the bracketed [key = value] lines above it.
fn records(text: &str) -> Vec<Vec<(String, String)>> {
    let mut all = Vec::new();
    let mut context: Vec<(String, String)> = Vec::new();
    let mut current: Vec<(String, String)> = Vec::new();
    for line in text.lines().map(str::trim).chain(std::iter::once("")) {
        if line.is_empty() || line.starts_with('#') {
            if !current.is_empty() {
                let mut record = context.clone();
                record.append(&mut current);
                all.push(record);
            }
            continue;
        }
        let bracketed = line.starts_with('[');
        let line = line.trim_matches(|c| c == '[' || c == ']');
        if let Some((key, value)) = line.split_once('=') {
            let pair = (key.trim().to_string(), value.trim().to_string());
            if bracketed {
                context.retain(|(k, _)| *k != pair.0);
                context.push(pair);
            } else {
                current.push(pair);
            }
        }
    }
    all
}

fn field<'a>(record: &'a [(String, String)], key: &str) -> Option<&'a str> {
    record
        .iter()
        .rev()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// (message, expected) of each byte-aligned record; `out_key` names the answer.
fn vectors(file: &str, out_key: &str) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut found = Vec::new();
    for record in records(&kat_file(file)) {
        let (len, msg, out) = match (
            field(&record, "Len").or_else(|| field(&record, "Input Length")),
            field(&record, "Msg"),
            field(&record, out_key),
        ) {
            (Some(len), Some(msg), Some(out)) => (len, msg, out),
            _ => continue,
        };
        let bits: usize = len.parse().unwrap();
        let output_bits: usize = field(&record, "Outputlen").map_or(0, |b| b.parse().unwrap());
        if bits % 8 != 0 || output_bits % 8 != 0 {
            continue;
        }
        let mut message = hex(msg);
        message.truncate(bits / 8);
        found.push((message, hex(out)));
    }
    assert!(!found.is_empty(), "{file}: no vectors");
    found
}

#[test]
fn keccak256_known_answers() {
    for file in [
        "keccak-legacy/ShortMsgKAT_256.txt",
        "keccak-legacy/LongMsgKAT_256.txt",
    ] {
        for (message, digest) in vectors(file, "MD") {
            assert_eq!(sponge::keccak256(&message).to_vec(), digest, "{file}");
            // Streaming, in pieces that straddle the rate.
            let mut hasher = sponge::Keccak256::new();
            for piece in message.chunks(61) {
                hasher.update(piece);
            }
            assert_eq!(hasher.finalize().to_vec(), digest, "{file} streamed");
            // finalize_reset: the digest, then the hasher as new, twice over.
            let mut hasher = sponge::Keccak256::new();
            for _ in 0..2 {
                hasher.update(&message);
                assert_eq!(hasher.finalize_reset().to_vec(), digest, "{file} reset");
            }
        }
    }
}

#[test]
fn sha3_known_answers() {
    for file in [
        "fips202-cavp/SHA3_256ShortMsg.rsp",
        "fips202-cavp/SHA3_256LongMsg.rsp",
    ] {
        for (message, digest) in vectors(file, "MD") {
            assert_eq!(sponge::sha3_256(&message).to_vec(), digest, "{file}");
        }
    }
    for file in [
        "fips202-cavp/SHA3_512ShortMsg.rsp",
        "fips202-cavp/SHA3_512LongMsg.rsp",
    ] {
        for (message, digest) in vectors(file, "MD") {
            assert_eq!(sponge::sha3_512(&message).to_vec(), digest, "{file}");
        }
    }
}

fn shake(rate_128: bool, message: &[u8], out: &mut [u8]) {
    // Absorbed in two pieces and read in two, to cross the buffers' edges.
    let (first, second) = message.split_at(message.len() / 3);
    let mut reader = if rate_128 {
        let mut shake = sponge::Shake128::new();
        shake.update(first);
        shake.update(second);
        shake.finalize_xof()
    } else {
        let mut shake = sponge::Shake256::new();
        shake.update(first);
        shake.update(second);
        shake.finalize_xof()
    };
    let (head, tail) = out.split_at_mut(out.len() / 2);
    reader.read(head);
    reader.read(tail);
}

#[test]
fn shake_known_answers() {
    for (file, rate_128) in [
        ("fips202-cavp/SHAKE128ShortMsg.rsp", true),
        ("fips202-cavp/SHAKE128LongMsg.rsp", true),
        ("fips202-cavp/SHAKE128VariableOut.rsp", true),
        ("fips202-cavp/SHAKE256ShortMsg.rsp", false),
        ("fips202-cavp/SHAKE256LongMsg.rsp", false),
        ("fips202-cavp/SHAKE256VariableOut.rsp", false),
    ] {
        let found = vectors(file, "Output");
        for (message, expected) in found {
            let mut out = vec![0u8; expected.len()];
            shake(rate_128, &message, &mut out);
            assert_eq!(out, expected, "{file}");
            // finalize_xof_reset: the output, then the hasher as new, twice over.
            let mut shake128 = sponge::Shake128::new();
            let mut shake256 = sponge::Shake256::new();
            for _ in 0..2 {
                out.fill(0);
                if rate_128 {
                    shake128.update(&message);
                    shake128.finalize_xof_reset().read(&mut out);
                } else {
                    shake256.update(&message);
                    shake256.finalize_xof_reset().read(&mut out);
                }
                assert_eq!(out, expected, "{file} reset");
            }
        }
    }
}

/// The message of an RFC 9861 vector: 'empty', 'ptn N' or 'repeat XX N'.
fn rfc9861_bytes(spec: &str) -> Vec<u8> {
    let words: Vec<&str> = spec.split_whitespace().collect();
    match words.as_slice() {
        ["empty"] => Vec::new(),
        ["ptn", n] => (0..n.parse::<usize>().unwrap())
            .map(|i| (i % 251) as u8)
            .collect(),
        ["repeat", byte, n] => vec![hex(byte)[0]; n.parse().unwrap()],
        _ => panic!("unknown message {spec}"),
    }
}

fn rfc9861(file: &str, mut hash: impl FnMut(&[(String, String)], &mut [u8])) {
    let mut count = 0;
    for record in records(&kat_file(file)) {
        let length: usize = field(&record, "OutputLength").unwrap().parse().unwrap();
        let offset: usize = field(&record, "OutputOffset").unwrap().parse().unwrap();
        let mut out = vec![0u8; length];
        hash(&record, &mut out);
        assert_eq!(
            out[offset..].to_vec(),
            hex(field(&record, "Output").unwrap()),
            "{file}: {record:?}"
        );
        count += 1;
    }
    assert!(count > 10, "{file}: {count} vectors");
}

#[test]
fn turboshake128_known_answers() {
    rfc9861("rfc9861/turboshake128.txt", |record, out| {
        let message = rfc9861_bytes(field(record, "Message").unwrap());
        let domain = hex(field(record, "Domain").unwrap())[0];
        sponge::turboshake128(&message, domain, out);
    });
}

#[test]
fn kt128_known_answers() {
    rfc9861("rfc9861/kt128.txt", |record, out| {
        let message = rfc9861_bytes(field(record, "Message").unwrap());
        let customization = rfc9861_bytes(field(record, "Customization").unwrap());
        sponge::kt128(&message, &customization, out);
        let single = out.to_vec();
        for threads in [2, 3] {
            sponge::kt128_parallel(&message, &customization, out, threads);
            assert_eq!(
                out.to_vec(),
                single,
                "kt128_parallel with {threads} threads"
            );
        }
    });
}

/// Ascon-Hash256 (SP 800-232) on the public permutation: its known answers check the
/// permutation's words and rounds as the standard defines them.
fn ascon_hash256(message: &[u8]) -> [u8; 32] {
    let mut state: sponge::ascon::State = [0x0000_0801_00cc_0002, 0, 0, 0, 0];
    sponge::ascon::permute12(&mut state);
    let mut blocks = message.chunks_exact(8);
    for block in &mut blocks {
        state[0] ^= u64::from_le_bytes(block.try_into().unwrap());
        sponge::ascon::permute12(&mut state);
    }
    let tail = blocks.remainder();
    let mut last = [0u8; 8];
    last[..tail.len()].copy_from_slice(tail);
    last[tail.len()] = 0x01;
    state[0] ^= u64::from_le_bytes(last);
    let mut digest = [0u8; 32];
    for chunk in digest.chunks_mut(8) {
        sponge::ascon::permute12(&mut state);
        chunk.copy_from_slice(&state[0].to_le_bytes());
    }
    digest
}

#[test]
fn ascon_known_answers() {
    let file = "ascon-sp800-232/asconhash256/LWC_HASH_KAT_128_256.txt";
    let mut count = 0;
    for record in records(&kat_file(file)) {
        let message = hex(field(&record, "Msg").unwrap_or(""));
        let digest = hex(field(&record, "MD").unwrap());
        assert_eq!(
            ascon_hash256(&message).to_vec(),
            digest,
            "{file}: {record:?}"
        );
        count += 1;
    }
    assert!(count > 1000, "{file}: {count} vectors");
}

#[test]
fn the_forced_kernels_run() {
    // scripts/test forces each kernel in turn: a run that fell back to another would test
    // that one twice and this one never.
    let active = sponge::active_kernels();
    for (variable, running) in [
        ("SPONGE_KERNEL", active[0]),
        ("SPONGE_BATCH_KERNEL", active[1]),
        ("SPONGE_ASCON_KERNEL", active[2]),
    ] {
        match std::env::var(variable) {
            Ok(forced) if !forced.is_empty() => assert_eq!(running, forced, "{variable}"),
            _ => assert!(!running.is_empty()),
        }
    }
}
