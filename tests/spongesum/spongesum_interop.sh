#!/usr/bin/env bash
# spongesum against the tools people already have (Debian's Perl sha3sum, rhash, a Crypto++
# Keccak-256 reference), and the GNU check-mode and error behaviour, driven as a user would.
#   spongesum_interop.sh CASE [ARGUMENT]
# Environment: SPONGESUM (the binary), TREE (the test tree, made by the `tree` case),
# WORK (a scratch folder of this case), KECCAK_REFERENCE, BUILD_DIR (for `cmake --install`).
set -euo pipefail
case_name=$1
argument=${2:-}
: "${SPONGESUM:?}" "${TREE:?}"

fail() {
  echo "FAIL ($case_name${argument:+ $argument}): $*" >&2
  exit 1
}

# expect_status WANTED COMMAND...: runs COMMAND (output to $WORK/out, $WORK/err).
expect_status() {
  local wanted=$1 status=0
  shift
  "$@" >"$WORK/out" 2>"$WORK/err" || status=$?
  if [ "$status" -ne "$wanted" ]; then
    echo "--- stdout"; cat "$WORK/out"; echo "--- stderr"; cat "$WORK/err"
    fail "exit status $status, expected $wanted: $*"
  fi
}
expect_in() {  # expect_in FILE TEXT: FILE has a line equal to TEXT
  grep -qxF -- "$2" "$WORK/$1" || { cat "$WORK/$1"; fail "$1 lacks the line '$2'"; }
}
expect_not_in() {  # expect_not_in FILE TEXT: no line of FILE contains TEXT
  if grep -qF -- "$2" "$WORK/$1"; then cat "$WORK/$1"; fail "$1 has '$2'"; fi
}

if [ "$case_name" != tree ]; then
  : "${WORK:?}"
  rm -rf "$WORK"
  mkdir -p "$WORK"
  cd "$TREE"
  # Every file of the tree, in glob order (names with a newline survive in an array).
  files=()
  for name in * sub/*; do
    [ -f "$name" ] && files+=("$name")
  done
fi

case $case_name in
  tree)
    # Empty files, the sizes around the rates and 1 MiB (the reader thread's threshold), 100 MiB, and
    # names with spaces, a backslash and a newline.
    rm -rf "$TREE"
    mkdir -p "$TREE/sub"
    cd "$TREE"
    : >empty
    : >"sub/empty too"
    printf abc >"with space"
    printf 'back' >'back\slash'
    printf 'new' >$'new\nline'
    for size in 1 71 72 135 136 137 167 168 169 1000 65536 1048575 1048576 1048577; do
      head -c "$size" /dev/urandom >"sub/random-$size"
    done
    head -c $((100 << 20)) /dev/urandom >big-100MiB
    ;;

  sha3sum)
    # Byte-identical output to sha3sum -a ARGUMENT, untagged and tagged; each tool's output
    # verified by the other's -c.
    declare -A ours=([224]=sha3-224 [256]=sha3-256 [384]=sha3-384 [512]=sha3-512
                     [128000]=shake128 [256000]=shake256)
    algorithm=${ours[$argument]:?unknown sha3sum algorithm}
    for form in untagged tag; do
      flags=()
      [ "$form" = tag ] && flags=(--tag)
      sha3sum -a "$argument" "${flags[@]}" "${files[@]}" >"$WORK/sha3sum.$form"
      "$SPONGESUM" -a "$algorithm" "${flags[@]}" "${files[@]}" >"$WORK/spongesum.$form"
      cmp "$WORK/sha3sum.$form" "$WORK/spongesum.$form" ||
        { diff "$WORK/sha3sum.$form" "$WORK/spongesum.$form" | head; fail "$form output differs"; }
      expect_status 0 "$SPONGESUM" -c "$WORK/sha3sum.$form"
      [ "$(grep -c ': OK$' "$WORK/out")" -eq "${#files[@]}" ] || fail "not every file OK"
    done
    # sha3sum -c reads our untagged file (the tagged one is the same bytes, checked above);
    # once, for SHA3-256: ours are byte-identical to its own files at every width.
    if [ "$argument" = 256 ]; then
      expect_status 0 sha3sum -c "$WORK/spongesum.untagged"
    fi
    ;;

  rhash)
    # rhash turns a backslash in a name into a slash and does not escape a newline: it
    # writes the files without either.
    plain=()
    for name in "${files[@]}"; do
      [[ $name == *\\* || $name == *$'\n'* ]] || plain+=("$name")
    done
    rhash --sha3-256 --bsd "${plain[@]}" >"$WORK/rhash.bsd"
    rhash --sha3-256 "${plain[@]}" >"$WORK/rhash.simple"
    grep -q '^SHA3-256 (with space) = ' "$WORK/rhash.bsd" || fail "rhash --bsd wrote no BSD lines"
    for sums in rhash.bsd rhash.simple; do
      expect_status 0 "$SPONGESUM" -c "$WORK/$sums"
      [ "$(grep -c ': OK$' "$WORK/out")" -eq "${#plain[@]}" ] || fail "$sums: not every file OK"
    done
    ;;

  keccak)
    "${KECCAK_REFERENCE:?}" "${files[@]}" >"$WORK/reference"
    # -z: one record per file whatever its name; the digest is the first 64 characters.
    "$SPONGESUM" -a keccak-256 -z "${files[@]}" >"$WORK/records"
    while IFS= read -r -d '' record; do echo "${record:0:64}"; done <"$WORK/records" >"$WORK/ours"
    cmp "$WORK/reference" "$WORK/ours" || fail "Keccak-256 differs from the reference"
    "$SPONGESUM" -a keccak-256 --tag "with space" >"$WORK/tagged"
    expect_in tagged "KECCAK-256 (with space) = 4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45"
    ;;

  check)
    good=$("$SPONGESUM" "with space" empty)
    # The corrupted digest: flip the first hex digit whatever it is.
    first=$("$SPONGESUM" sub/random-1000)
    flipped=$([ "${first:0:1}" = 0 ] && echo 1 || echo 0)${first:1}
    printf '%s\n%s\n%s\n' "$good" "$flipped" \
      "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a  no-such-file" \
      >"$WORK/mixed.sum"
    printf 'this is not a checksum line\n' >>"$WORK/mixed.sum"
    expect_status 1 "$SPONGESUM" -c "$WORK/mixed.sum"
    expect_in out "with space: OK"
    expect_in out "empty: OK"
    expect_in out "sub/random-1000: FAILED"
    expect_in out "no-such-file: FAILED open or read"
    expect_in err "spongesum: no-such-file: No such file or directory"
    expect_in err "spongesum: WARNING: 1 line is improperly formatted"
    expect_in err "spongesum: WARNING: 1 listed file could not be read"
    expect_in err "spongesum: WARNING: 1 computed checksum did NOT match"
    expect_status 1 "$SPONGESUM" -c --status "$WORK/mixed.sum"
    [ ! -s "$WORK/out" ] || fail "--status printed on stdout"
    expect_status 1 "$SPONGESUM" -c --quiet "$WORK/mixed.sum"
    expect_not_in out ": OK"
    expect_in out "sub/random-1000: FAILED"
    expect_status 1 "$SPONGESUM" -c -w "$WORK/mixed.sum"
    expect_in err "spongesum: $WORK/mixed.sum: 5: improperly formatted checksum line"

    # Missing files ignored: only the mismatch fails.
    expect_status 1 "$SPONGESUM" -c --ignore-missing "$WORK/mixed.sum"
    expect_not_in out "no-such-file"
    printf '%s\n%s\n' "$good" "this is not a checksum line" >"$WORK/good-and-malformed.sum"
    expect_status 0 "$SPONGESUM" -c "$WORK/good-and-malformed.sum"
    expect_status 1 "$SPONGESUM" -c --strict "$WORK/good-and-malformed.sum"
    expect_status 0 "$SPONGESUM" -c --status "$WORK/good-and-malformed.sum"
    printf 'garbage\n# a comment\n' >"$WORK/only-malformed.sum"
    expect_status 1 "$SPONGESUM" -c "$WORK/only-malformed.sum"
    expect_in err "spongesum: $WORK/only-malformed.sum: no properly formatted checksum lines found"

    # CRLF line endings (a checksum file written on Windows), untagged and tagged.
    { "$SPONGESUM" "with space" empty; "$SPONGESUM" --tag sub/random-137; } |
      sed 's/$/\r/' >"$WORK/crlf.sum"
    expect_status 0 "$SPONGESUM" -c "$WORK/crlf.sum"
    expect_in out "sub/random-137: OK"
    # Check lines from standard input, and a missing check file.
    "$SPONGESUM" empty | { expect_status 0 "$SPONGESUM" -c; }
    expect_status 1 "$SPONGESUM" -c "$WORK/no-such.sum"
    expect_in err "spongesum: $WORK/no-such.sum: No such file or directory"
    # A malformed line naming a real file never hashes it: a bad escape, an odd digest, a
    # digest of the wrong length for its tag.
    printf '%s\n' '\0123  empty' 'a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434  empty' \
      'SHA3-512 (empty) = a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a' \
      >"$WORK/bad.sum"
    expect_status 1 "$SPONGESUM" -c -w "$WORK/bad.sum"
    expect_in err "spongesum: $WORK/bad.sum: 3: improperly formatted checksum line"
    expect_in err "spongesum: $WORK/bad.sum: no properly formatted checksum lines found"
    [ ! -s "$WORK/out" ] || fail "a malformed line was checked"
    ;;

  gnu_check)
    # Check mode against GNU's sha256sum -c on the same hostile lines: each case is written
    # twice from one template, once with SHA256 and sha256sum's digests, once with SHA3-256
    # and spongesum's (both 64 hex digits, so the untagged lines are SHA3-256 to spongesum);
    # the exit status, every stdout line (OK, FAILED, FAILED open or read) and the warnings
    # must be the same, with -c alone, --strict and -w.
    mkdir -p "$WORK/files" "$WORK/gnu" "$WORK/ours"
    cd "$WORK/files"
    printf abc >a
    printf b >b
    printf xy >'x(y)'
    printf pq >'p) = q'
    printf nl >$'n\nl'
    # make_case NAME LINE...: the template lines (printf %b: \t, \r, \\ are written as such);
    # @T@ is the tag, @A@ @B@ @P@ @Q@ @N@ the digests of a, b, x(y), 'p) = q', n<newline>l.
    declare -A substitutions=([gnu]="-e s/@T@/SHA256/g" [ours]="-e s/@T@/SHA3-256/g")
    for key in A:a B:b P:'x(y)' Q:'p) = q' N:$'n\nl'; do
      substitutions[gnu]+=" -e s/@${key%%:*}@/$(sha256sum <"${key#*:}" | cut -c1-64)/g"
      substitutions[ours]+=" -e s/@${key%%:*}@/$("$SPONGESUM" <"${key#*:}" | cut -c1-64)/g"
    done
    make_case() {
      local name=$1 tool
      shift
      for tool in gnu ours; do
        # shellcheck disable=SC2086 # the sed expressions hold no blanks
        printf '%b\n' "$@" | sed ${substitutions[$tool]} >"$WORK/$tool/$name.sum"
      done
    }
    # compare_check CASE...: both tools on the cases' files together (GNU keeps the untagged
    # form of the first such line for all of them).
    compare_check() {
      local flags gnu_status ours_status
      for flags in "" --strict -w; do
        local gnu_files=() ours_files=() name
        for name in "$@"; do
          gnu_files+=("../gnu/$name.sum")
          ours_files+=("../ours/$name.sum")
        done
        gnu_status=0 ours_status=0
        # shellcheck disable=SC2086 # $flags is one flag or none
        sha256sum -c $flags "${gnu_files[@]}" >"$WORK/gnu.out" 2>"$WORK/gnu.err" || gnu_status=$?
        # shellcheck disable=SC2086
        "$SPONGESUM" -c $flags "${ours_files[@]}" >"$WORK/ours.out" 2>"$WORK/ours.err" ||
          ours_status=$?
        local what="$* (-c $flags)"
        [ "$gnu_status" -eq "$ours_status" ] ||
          { cat "$WORK/gnu.out" "$WORK/gnu.err" "$WORK/ours.out" "$WORK/ours.err"
            fail "$what: exit status $ours_status, sha256sum's $gnu_status"; }
        cmp -s "$WORK/gnu.out" "$WORK/ours.out" ||
          { diff "$WORK/gnu.out" "$WORK/ours.out"; fail "$what: stdout differs"; }
        for tool in gnu ours; do
          sed -n -e 's#\.\./\(gnu\|ours\)/#DIR/#' -e 's/formatted SHA256 checksum/formatted checksum/' \
            -e 's/^[a-z0-9]*sum: \(.*\(WARNING\|formatted\).*\)/\1/p' "$WORK/$tool.err" \
            >"$WORK/$tool.warnings"
        done
        cmp -s "$WORK/gnu.warnings" "$WORK/ours.warnings" ||
          { diff "$WORK/gnu.warnings" "$WORK/ours.warnings"; fail "$what: warnings differ"; }
      done
    }
    cases=()
    add_case() {
      make_case "$@"
      cases+=("$1")
    }
    add_case openssl '@T@(a)= @A@' '@T@(b)=@B@'
    add_case bsd_spacing '@T@ (a)=@A@' '@T@ (a) =  @A@' '@T@ (b)\t=\t @B@' '@T@ (a)  = @A@'
    add_case tab '@A@\ta' '@A@\t*a' '@B@\t b' '@A@\t\ta'
    add_case tab_standard '@A@\t*a' '@B@\t b' '@A@\tb'
    add_case tagged_malformed '@T@  (a) = @A@' '@T@\t(a) = @A@' '@T@ (a) = @A@ ' \
      '@T@ (a) x = @A@' '@T@ (a) @A@' '@T@ a) = @A@' '@T@ (a) =' 'SHA-256 (a) = @A@'
    add_case names '@T@ (x(y)) = @P@' '@T@(p) = q)= @Q@' '@T@ ( a) = @A@' '@T@ (a)) = @A@' \
      '@T@ () = @A@' '\\@T@(n\\nl)= @N@' '\\@N@\tn\\nl'
    add_case one_character_names '@A@  ' '@A@ *'
    add_case mismatches '@T@(a)= @B@' '@B@\ta' '@T@ (b) = @A@'
    add_case blanks_and_case '  \t@T@(a)= @A@\r' '\t@A@  a\r' '@T@ (b) = @B@'
    add_case standard_then_bsd '@A@  a' '@B@ b' '@A@ *a'
    add_case bsd_then_standard '@A@ a' '@B@  b' '@A@ *a'
    add_case all_malformed '@T@  (a) = @A@' 'garbage' '  '
    for name in "${cases[@]}"; do
      compare_check "$name"
    done
    # The untagged form holds across the check files of one run, in both orders.
    make_case first_standard '@A@  a'
    make_case first_bsd '@A@ a'
    make_case then_either '@B@ b' '@B@  b'
    compare_check first_standard then_either
    compare_check first_bsd then_either
    compare_check "${cases[@]}"
    # Lines read from standard input cannot name it: improperly formatted.
    make_case names_stdin '@A@  -' '@T@ (-) = @A@' '@A@  a'
    sha256sum -c <"$WORK/gnu/names_stdin.sum" >"$WORK/gnu.out" 2>"$WORK/gnu.err" && gnu_status=0 ||
      gnu_status=$?
    expect_status "$gnu_status" "$SPONGESUM" -c - <"$WORK/ours/names_stdin.sum"
    cmp -s "$WORK/gnu.out" "$WORK/out" || { diff "$WORK/gnu.out" "$WORK/out"; fail "stdin: stdout differs"; }
    expect_in err "spongesum: WARNING: 2 lines are improperly formatted"
    grep -qxF "sha256sum: WARNING: 2 lines are improperly formatted" "$WORK/gnu.err" ||
      fail "sha256sum does not say 2 lines are improperly formatted"

    # What openssl dgst writes, for every algorithm both have: all OK.
    openssl dgst -sha3-224 a b 'x(y)' >"$WORK/openssl.sum"
    for algorithm in sha3-256 sha3-384 sha3-512 shake128 shake256; do
      openssl dgst "-$algorithm" a b 'x(y)' >>"$WORK/openssl.sum"
    done
    grep -q '^SHAKE-128(a)= ' "$WORK/openssl.sum" || fail "openssl wrote no SHAKE-128 line"
    expect_status 0 "$SPONGESUM" -c --strict "$WORK/openssl.sum"
    [ "$(grep -c ': OK$' "$WORK/out")" -eq 18 ] || fail "openssl's lines: not 18 OK"

    # The one departure: a NUL in a line makes it improperly formatted (GNU checks the name
    # or digest up to the NUL, and prints `a: OK` for `HEX  a<NUL>anything`).
    printf '%s  a\0anything\n' "$("$SPONGESUM" <a | cut -c1-64)" >"$WORK/nul.sum"
    expect_status 1 "$SPONGESUM" -c -w "$WORK/nul.sum"
    [ ! -s "$WORK/out" ] || fail "a line with a NUL was checked: $(cat -v "$WORK/out")"
    expect_in err "spongesum: $WORK/nul.sum: 1: improperly formatted checksum line"
    printf '%s  b\n' "$("$SPONGESUM" <b | cut -c1-64)" >>"$WORK/nul.sum"
    printf 'SHA3-256 (a) = %s\0\n' "$("$SPONGESUM" <a | cut -c1-64)" >>"$WORK/nul.sum"
    expect_status 0 "$SPONGESUM" -c "$WORK/nul.sum"
    [ "$(cat "$WORK/out")" = "b: OK" ] || fail "NUL lines: $(cat -v "$WORK/out")"
    expect_in err "spongesum: WARNING: 2 lines are improperly formatted"
    ;;

  errors)
    # A missing file and a folder: a message each, the other files still hashed in order.
    expect_status 1 "$SPONGESUM" empty no-such-file sub "with space"
    expect_in err "spongesum: no-such-file: No such file or directory"
    expect_in err "spongesum: sub: Is a directory"
    [ "$(cut -c67- "$WORK/out" | tr '\n' '|')" = "empty|with space|" ] || fail "order: $(cat "$WORK/out")"
    if [ "$(id -u)" -ne 0 ]; then
      cp empty "$WORK/unreadable" && chmod 000 "$WORK/unreadable"
      expect_status 1 "$SPONGESUM" "$WORK/unreadable"
      expect_in err "spongesum: $WORK/unreadable: Permission denied"
    fi
    # Usage errors: exit status 1, as GNU cksum.
    expect_status 1 "$SPONGESUM" -a md5 empty
    grep -q "invalid argument 'md5' for '--algorithm'" "$WORK/err" || fail "no algorithm message"
    expect_status 1 "$SPONGESUM" -a shake128 -l 12 empty
    expect_status 1 "$SPONGESUM" -a sha3-256 -l 512 empty
    expect_status 1 "$SPONGESUM" --status empty
    expect_status 1 "$SPONGESUM" --no-such-option
    # -a sha3 -l as in coreutils 9.8; -l for the SHAKEs; GNU's bundled short options and --.
    expect_status 0 "$SPONGESUM" -a sha3 -l 384 empty
    expect_in out "0c63a75b845e4f7d01107d852e4c2485c51a50aaaa94fc61995e71bbee983a2ac3713831264adb47fb6bd1e058d5f004  empty"
    expect_status 0 "$SPONGESUM" -a shake256 -l 256 empty
    expect_in out "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f  empty"
    "$SPONGESUM" -a shake256 -l 256 empty >"$WORK/short.sum"
    expect_status 0 "$SPONGESUM" -cq -a shake256 "$WORK/short.sum"
    cp empty "$WORK/-dash"
    (cd "$WORK" && "$SPONGESUM" -- -dash) >"$WORK/dash" || fail "-- did not end the options"
    # Output that cannot be written (a full device, a closed descriptor): a message and exit
    # status 1 on every path, --help and --version too, as GNU's tools.
    write_fails() {  # write_fails full|closed ARGUMENT...
      local how=$1 status=0
      shift
      if [ "$how" = full ]; then
        "$SPONGESUM" "$@" >/dev/full 2>"$WORK/err" || status=$?
      else
        "$SPONGESUM" "$@" >&- 2>"$WORK/err" || status=$?
      fi
      [ "$status" -eq 1 ] || fail "$* into a $how stdout: exit status $status"
      grep -q '^spongesum: write error: ' "$WORK/err" || fail "$* into a $how stdout: no message"
    }
    [ -c /dev/full ] || fail "no /dev/full"
    for how in full closed; do
      write_fails "$how" --help
      write_fails "$how" -h
      write_fails "$how" --version
    done
    write_fails full empty
    write_fails full -c "$WORK/short.sum" -a shake256
    ;;

  zero)
    "$SPONGESUM" -z $'new\nline' 'back\slash' >"$WORK/records"
    # The escaped lines start with a backslash, then the digest.
    newline_digest=$("$SPONGESUM" $'new\nline' | cut -c2-65)
    backslash_digest=$("$SPONGESUM" 'back\slash' | cut -c2-65)
    printf '%s  new\nline\0%s  back\\slash\0' "$newline_digest" "$backslash_digest" \
      >"$WORK/expected"
    cmp "$WORK/records" "$WORK/expected" || fail "-z output"
    ;;

  order)
    # Many files on several threads: the same bytes as one thread, in argument order.
    many=()
    for i in $(seq 1 40); do many+=(sub/* empty); done
    "$SPONGESUM" -j 1 "${many[@]}" >"$WORK/one-thread"
    "$SPONGESUM" -j 4 "${many[@]}" >"$WORK/four-threads"
    cmp "$WORK/one-thread" "$WORK/four-threads" || fail "threads changed the output"
    ;;

  tree_threads)
    # KT128 and KT256 of one file over the -j threads (a reader thread, then threads hashing
    # too) give the bytes one thread gives, at the sizes around the first block (256 KiB),
    # the reader's threshold (1 MiB), its block (4 MiB) and the threaded block (8 MiB).
    sizes=(262143 262144 262145 1048575 1048576 1048577 4194303 4194304 4194305 8388609)
    for size in "${sizes[@]}"; do
      head -c "$size" /dev/urandom >"$WORK/random-$size"
    done
    for algorithm in kt128 kt256; do
      for name in "${sizes[@]/#/$WORK/random-}" big-100MiB; do
        expected=$("$SPONGESUM" -j 1 -a "$algorithm" <"$name" | cut -d' ' -f1)
        [ ${#expected} -gt 60 ] || fail "$algorithm of $name: no digest from standard input"
        for jobs in 1 2 3 4; do
          got=$("$SPONGESUM" -j "$jobs" -a "$algorithm" "$name" | cut -d' ' -f1)
          [ "$got" = "$expected" ] || fail "$algorithm -j $jobs of $name: $got, not $expected"
        done
        got=$("$SPONGESUM" -j 2 -a "$algorithm" - <"$name" | cut -d' ' -f1)
        [ "$got" = "$expected" ] || fail "$algorithm -j 2 of $name on standard input: $got"
      done
    done
    ;;

  thread_fallback)
    # Threads that cannot be started: each needs address space for its stack, and `ulimit -v`
    # binds root too (RLIMIT_NPROC does not). The jobs go on on the threads that did start,
    # or on this one, said once on stderr, and the output is that of one thread.
    mkdir -p "$WORK/small"
    cd "$WORK/small"
    for i in $(seq 1 300); do printf '%s' "$i" >"f$i"; done
    small=(f*)
    "$SPONGESUM" -j 1 "${small[@]}" >"$WORK/one-thread"
    head -n 150 "$WORK/one-thread" >"$WORK/first.sum"
    tail -n +151 "$WORK/one-thread" >"$WORK/second.sum"
    # limited STACK_KB ADDRESS_SPACE_KB COMMAND...: COMMAND under those limits.
    limited() {
      local stack=$1 address_space=$2
      shift 2
      (ulimit -s "$stack" && ulimit -v "$address_space" && exec "$@")
    }
    # 8 MiB stacks in 100 MB: a dozen threads at most of the 1000 asked for.
    expect_status 0 limited 8192 100000 "$SPONGESUM" -j 1000 "${small[@]}"
    cmp -s "$WORK/out" "$WORK/one-thread" || fail "fewer threads changed the output"
    [ "$(grep -c '^spongesum: could start only [0-9]* of 300 threads (.*); going on with [0-9]*$' \
      "$WORK/err")" -eq 1 ] || { cat "$WORK/err"; fail "not one message"; }
    # Check mode over two check files: two sets of threads, still one message.
    expect_status 0 limited 8192 100000 "$SPONGESUM" -j 1000 -c "$WORK/first.sum" "$WORK/second.sum"
    [ "$(grep -c ': OK$' "$WORK/out")" -eq 300 ] || fail "check mode: not 300 OK"
    [ "$(grep -c 'could start only' "$WORK/err")" -eq 1 ] || { cat "$WORK/err"; fail "not one message"; }
    # A stack larger than the address space: no thread at all, the calling thread does it all.
    expect_status 0 limited 2000000 1000000 "$SPONGESUM" -j 4 "${small[@]}"
    cmp -s "$WORK/out" "$WORK/one-thread" || fail "no thread: output differs"
    expect_in err "spongesum: could start only 0 of 4 threads (Resource temporarily unavailable); going on with 1"
    # One KT128 file over -j 4 with no thread to be had: neither its reader nor its hashing
    # threads start, and the calling thread reads and hashes in turn, to the same digest.
    "$SPONGESUM" -j 1 -a kt128 "$TREE/big-100MiB" >"$WORK/kt128-one-thread"
    expect_status 0 limited 2000000 1000000 "$SPONGESUM" -j 4 -a kt128 "$TREE/big-100MiB"
    cmp -s "$WORK/out" "$WORK/kt128-one-thread" || fail "KT128 with no thread: output differs"
    ;;

  progress)
    # The installed binary, through a pseudo-terminal (script(1)) and through a pipe.
    prefix="$WORK/prefix"
    cmake --install "${BUILD_DIR:?}" --prefix "$prefix" >/dev/null
    installed="$prefix/bin/spongesum"
    script -qefc "'$installed' --progress -a sha3-512 big-100MiB" /dev/null >"$WORK/terminal"
    grep -qE 'spongesum: [0-9.]+ [KMG]i?B of 100.0 MiB, [0-9]+ MB/s' "$WORK/terminal" ||
      { cat -v "$WORK/terminal"; fail "no progress line on the terminal"; }
    grep -qa 'big-100MiB' "$WORK/terminal" || fail "no checksum line on the terminal"
    "$installed" --progress -a sha3-512 big-100MiB 2>&1 | cat >"$WORK/pipe"
    if grep -q 'MB/s' "$WORK/pipe"; then cat -v "$WORK/pipe"; fail "progress into a pipe"; fi
    [ "$(wc -l <"$WORK/pipe")" -eq 1 ] || fail "pipe output: $(cat -v "$WORK/pipe")"
    ;;

  *)
    fail "unknown case"
    ;;
esac
echo "ok: $case_name $argument"
