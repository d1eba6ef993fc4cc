//! The crate's cases beside RustCrypto `keccak` 0.1.6 and `ascon` 0.5 and tiny-keccak 2.0.2,
//! interleaved in one run. Built by bench/rust.sh in a crate outside the repository, with
//! the peers as path dependencies.

#[path = "../../rust/src/bin/bench.rs"]
mod ours;

use ours::{consume, first_word, input, inputs, measure, our_cases, Case};

fn main() {
    let (data, messages) = inputs();
    let batch: Vec<&[u8]> = messages.iter().map(|m| &m[..]).collect();
    let mut cases = our_cases(&data, &batch);
    let ours_count = cases.len();
    let mut state = [0u64; 25];
    let mut state12 = [0u64; 25];
    let mut ascon12 = [0u64; 5];
    let mut ascon8 = [0u64; 5];
    let mut ascon6 = [0u64; 5];
    let tiny = |message: &[u8]| {
        use tiny_keccak::Hasher;
        let mut hasher = tiny_keccak::Keccak::v256();
        hasher.update(message);
        let mut out = [0u8; 32];
        hasher.finalize(&mut out);
        out
    };
    // Each peer case is named after the case of ours it is compared with.
    let mut peers = vec![
        (
            "f1600",
            "keccak 0.1.6",
            Case::new("", move || {
                keccak::f1600(&mut state);
                consume(state[0]);
            }),
        ),
        (
            "p1600 12 rounds",
            "keccak 0.1.6",
            Case::new("", move || {
                keccak::p1600(&mut state12, 12);
                consume(state12[0]);
            }),
        ),
    ];
    for size in [32usize, 136, 4096, 1 << 20] {
        let data = &data;
        peers.push((
            Box::leak(format!("keccak256 {size} B").into_boxed_str()),
            "tiny-keccak 2.0.2",
            Case::new("", move || {
                consume(first_word(&tiny(input(data, size))));
            }),
        ));
    }
    let batch_ref = &batch;
    peers.push((
        Box::leak(format!("keccak256_batch x{} of 32 B", batch.len()).into_boxed_str()),
        "tiny-keccak 2.0.2, one at a time",
        Case::new("", move || {
            for message in batch_ref {
                consume(first_word(&tiny(input(message, message.len()))));
            }
        }),
    ));
    peers.push((
        "ascon permute12",
        "ascon 0.5",
        Case::new("", move || {
            ascon::permute12(&mut ascon12);
            consume(ascon12[0]);
        }),
    ));
    peers.push((
        "ascon permute8",
        "ascon 0.5",
        Case::new("", move || {
            ascon::permute8(&mut ascon8);
            consume(ascon8[0]);
        }),
    ));
    peers.push((
        "ascon permute6",
        "ascon 0.5",
        Case::new("", move || {
            ascon::permute6(&mut ascon6);
            consume(ascon6[0]);
        }),
    ));
    let mut names = Vec::new();
    for (ours_name, peer, mut case) in peers {
        case.name = format!("{ours_name} [{peer}]");
        names.push(ours_name);
        cases.push(case);
    }
    let medians = measure(&mut cases, 101, 2_000_000);
    println!(
        "kernels (keccak, batch, ascon): {:?}",
        sponge::active_kernels()
    );
    println!(
        "{:<46} {:>12} {:>12} {:>8}  peer",
        "case", "ours ns", "peer ns", "peer/ours"
    );
    for (i, case) in cases[..ours_count].iter().enumerate() {
        let ours_ns = medians[i];
        let peer = names.iter().position(|n| *n == case.name);
        match peer {
            Some(p) => {
                let peer_ns = medians[ours_count + p];
                let peer_name = &cases[ours_count + p].name;
                let peer_name = &peer_name[peer_name.find('[').unwrap()..];
                println!(
                    "{:<46} {:>12.1} {:>12.1} {:>8.2}x  {}",
                    case.name,
                    ours_ns,
                    peer_ns,
                    peer_ns / ours_ns,
                    peer_name
                );
            }
            None => println!("{:<46} {:>12.1}", case.name, ours_ns),
        }
    }
}
