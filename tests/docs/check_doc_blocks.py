#!/usr/bin/env python3
"""Compiles or runs every fenced code block of README.md and docs/*.md.

Each document gets a work folder of its own (a temporary folder), in which its blocks are
handled in order. By the block's info string (its first word is the language; further words
are key=value attributes):

  cpp, c      A complete program, compiled (C++20 or C11) against the sponge library built
              here, linked and run; it must exit 0. With `program=NAME`, the blocks of that
              name are concatenated in order and handled as one program, at the last of
              them (so a document may show a program in pieces). With `file=NAME`, the
              program's source is also written to NAME in the work folder, for later blocks.
  sh, console A block of shell commands (`#` comments, `\\` continuations, `$ ` prompts in
              console blocks). By the program each command starts:
              - run in the work folder with bash -e: spongesum, spongegen list/check/--help,
                the compiler and pkg-config lines of a consumer, and plain utilities (RUN);
                the built spongesum and spongegen are first on PATH, `generated` and
                `tests` in the work folder point into the source tree (read only), and the
                path /opt/sponge stands for a prefix the build was installed into;
              - scripts/<name>: too long or too wide to run in a test (they install packages,
                build trees, run the whole suite); checked: the script exists, is executable
                and passes `bash -n`, and it is listed by name in the output;
              - build commands (cmake, ctest, qemu-aarch64, qemu-riscv64, ...): not run;
                checked: every `-D` option named SPONGE_* is one the project declares, every
                toolchain file exists, every `ctest -R NAME` matches a test registered in
                this build.
              A block mixing commands that run with build commands fails: split it.
              - openssl and python3: run (as the other RUN programs) when the build has
                the OpenSSL provider and names the openssl command and the system Python
                (--openssl, --python; not in sanitizer builds, whose module the uninstrumented
                openssl cannot load); otherwise the block is not run;
  ini, python A file (an openssl.cnf, a Python script) written to the work folder as
              `file=NAME` says, with /opt/sponge replaced by the installed build's prefix,
              for later blocks to use; the attribute is required.
  text        Output: the block must follow a block that ran, and is compared with what
              that block printed (stdout), line by line; `...` in a line matches any text
              there, and a line that is only `...` matches any number of lines.
  go          A complete Go program (package main), built with the Go toolchain found here
              against the source tree's go/keccak (copied into a GOPATH of the work folder,
              as spongegen.dev/keccak) and run; it must exit 0. Without a Go toolchain the
              block (and its output block) is not run.
  toml        A Rust program's Cargo.toml lines: parsed as TOML; its [dependencies] become
              those of the next rust block, a dependency on package "sponge" (or named
              sponge) pointing at the source tree's rust/ crate.
  rust        A complete Rust program (fn main), built with cargo (rustup's where present)
              offline, its files in a temporary folder, with the dependencies of the toml
              block before it (else `sponge` alone), and run; it must exit 0. Without cargo
              the block (and its output block) is not run.
  js          A complete ES module program, run with node, `@spongegen/hashes` resolving to a
              copy of the source tree's js/ package (its kernels embedded from generated/ by
              its scripts/embed.mjs); it must exit 0. Without node the block (and its output
              block) is not run.
  cmake       A consumer project's CMakeLists.txt: configured against the installed build
              (CMAKE_PREFIX_PATH), built in a copy of the work folder, and every executable
              it declares is run.
  bat         Windows commands: each `clang --target=x86_64-pc-windows-msvc -c FILE` line is
              run (backslashes as slashes) on the source tree's file.

An untagged fence, or a language not listed here, fails. The test fails on the first broken
block and prints the document, line and reason.

Every relative link of the documents (outside code blocks) must name a file or folder of the
source tree, and a `#fragment` must be the GitHub anchor of one of that Markdown file's
headings.
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import tomllib

RUN_PROGRAMS = {
    "spongesum", "printf", "echo", "cat", "head", "tail", "wc", "ls", "cmp", "seq", "test",
    "export", "c++", "cc", "pkg-config", "truncate", "rm", "mkdir", "cd", "true", "false", "grep",
}
BUILD_PROGRAMS = {"cmake", "ctest", "qemu-aarch64", "qemu-riscv64", "wine64"}
OPENSSL_PROGRAMS = {"openssl", "python3"}
SPONGEGEN_RUNNABLE = {"list", "check", "--help"}
PREFIX = "/opt/sponge"
SKIPPED = object()  # a run block whose tool this build does not have (its output block too)


class BlockError(Exception):
    pass


def parse_blocks(path):
    """The (line, info string, text) of each fenced block of the markdown file."""
    blocks = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)(`{3,}|~{3,})(.*)$", lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = m.group(1), m.group(2), m.group(3).strip()
        start = i + 1
        body = []
        i += 1
        while i < len(lines) and not re.match(r"^\s*" + re.escape(fence) + r"\s*$", lines[i]):
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        if i == len(lines):
            raise BlockError(f"{path}:{start}: the fence is never closed")
        blocks.append((start, info, "\n".join(body) + "\n"))
        i += 1
    return blocks


def parse_info(info):
    words = info.split()
    if not words:
        return "", {}
    attributes = {}
    for word in words[1:]:
        key, sep, value = word.partition("=")
        if not sep:
            raise BlockError(f"info string word {word!r} is not key=value")
        attributes[key] = value
    return words[0], attributes


def run(command, cwd, env=None, what="command"):
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True,
                            text=True, errors="replace", timeout=600)
    if result.returncode != 0:
        raise BlockError(f"{what} failed (exit {result.returncode}): "
                         f"{' '.join(map(str, command))}\n{result.stdout}{result.stderr}")
    return result.stdout


def shell_commands(text, console):
    """The block's commands, continuations joined, comments and prompts removed."""
    commands = []
    pending = ""
    for raw in text.split("\n"):
        line = raw
        if console:
            if not line.startswith("$ ") and not pending:
                if line.strip():
                    raise BlockError(f"console line without a '$ ' prompt: {line!r}")
                continue
            if line.startswith("$ "):
                line = line[2:]
        if not pending and line.lstrip().startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line = pending + line
        pending = ""
        try:
            words = shlex.split(line, comments=True)
        except ValueError as error:
            raise BlockError(f"cannot parse {line!r}: {error}")
        if words:
            commands.append((line, words))
    if pending:
        raise BlockError("the block ends in a continuation")
    return commands


def programs_of(words):
    """The programs a command line starts: the first word of each &&, ||, ;, | piece, after
    leading VAR=value assignments."""
    programs = []
    expect = True
    for word in words:
        if word in ("&&", "||", ";", "|") or word.endswith(";"):
            expect = True
            continue
        if expect:
            if re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", word):
                continue
            programs.append(word)
            expect = False
    return programs


class Checker:
    def __init__(self, args):
        self.args = args
        self.source = os.path.abspath(args.source)
        self.build = os.path.abspath(args.build)
        self.scripts_checked = []
        self.not_run = []
        self.prefix = None
        self.scratch = tempfile.mkdtemp(prefix="sponge-doc-blocks-")
        self.options = self.project_options()
        self.counts = {}
        self.consumers = 0
        # `c++` and `cc` in the documents' commands are the build's compilers with its flags
        # (a sanitizer build's library needs its runtime at every link).
        self.bin = os.path.join(self.scratch, "bin")
        os.makedirs(self.bin)
        for name, compiler in (("c++", args.cxx), ("cc", args.cc)):
            self.wrap(name, f'{shlex.quote(compiler)} {args.flags or ""}')
        # `openssl` and `python3` are the ones the provider's tests use.
        if args.openssl and args.python:
            self.wrap("openssl", shlex.quote(args.openssl))
            self.wrap("python3", shlex.quote(args.python))

    def wrap(self, name, command):
        wrapper = os.path.join(self.bin, name)
        with open(wrapper, "w", encoding="utf-8") as f:
            f.write(f'#!/bin/sh\nexec {command} "$@"\n')
        os.chmod(wrapper, 0o755)

    # -- the installed build, for /opt/sponge and cmake blocks
    def install_prefix(self):
        if self.prefix is None:
            self.prefix = os.path.join(self.scratch, "prefix")
            run([self.args.cmake, "--install", self.build, "--prefix", self.prefix],
                self.scratch, what="cmake --install of the build")
        return self.prefix

    def project_options(self):
        names = set()
        for folder, _, files in os.walk(self.source):
            rel = os.path.relpath(folder, self.source)
            if rel.startswith("build") or rel.startswith(".git") or rel.startswith("generated"):
                continue
            for name in files:
                if name == "CMakeLists.txt" or name.endswith(".cmake"):
                    with open(os.path.join(folder, name), encoding="utf-8") as f:
                        names.update(re.findall(r"\b(SPONGE_[A-Z0-9_]+)\b", f.read()))
        return names

    def environment(self, work):
        env = dict(os.environ)
        path = [self.bin]
        for tool in (self.args.spongesum, self.args.spongegen):
            if tool:
                path.append(os.path.dirname(os.path.abspath(tool)))
        env["PATH"] = os.pathsep.join(path + [env.get("PATH", "")])
        env.pop("SPONGE_KERNEL", None)
        env["HOME"] = work
        return env

    # -- programs
    def compile_and_run(self, language, source_text, work, name):
        extension = ".cpp" if language == "cpp" else ".c"
        source = os.path.join(work, name + extension)
        with open(source, "w", encoding="utf-8") as f:
            f.write(source_text)
        binary = os.path.join(work, name + ".bin")
        flags = shlex.split(self.args.flags or "")
        if language == "cpp":
            command = [self.args.cxx, "-std=c++20", "-Wall", "-Wextra", "-Werror", *flags,
                       "-I", self.args.include, source, self.args.library, "-o", binary]
        else:
            libraries = [f"-l{library}" for library in (self.args.c_libraries or "").split(";")
                         if library]
            command = [self.args.cc, "-std=c11", "-Wall", "-Wextra", "-Werror", *flags,
                       "-I", self.args.include, source, self.args.library, *libraries,
                       "-o", binary]
        run(command, work, what="compiling")
        return run([binary], work, env=self.environment(work), what="running the program")

    def go_build_and_run(self, text, work, name):
        if not self.args.go:
            self.not_run.append(f"(go is not found here) the Go program {name}")
            return SKIPPED
        gopath = os.path.join(self.scratch, "gopath")
        package = os.path.join(gopath, "src", "spongegen.dev", "keccak")
        if not os.path.isdir(package):
            shutil.copytree(os.path.join(self.source, "go", "keccak"), package)
        program = os.path.join(gopath, "src", "docblocks", os.path.basename(work), name)
        os.makedirs(program)
        with open(os.path.join(program, "main.go"), "w", encoding="utf-8") as f:
            f.write(text)
        env = self.environment(work)
        env.update(GO111MODULE="off", GOPROXY="off", GOFLAGS="",
                   GOPATH=os.pathsep.join([gopath, self.args.gocode]),
                   GOCACHE=os.path.join(self.scratch, "gocache"))
        binary = os.path.join(work, name + ".go.bin")
        run([self.args.go, "build", "-o", binary, os.path.relpath(program, gopath + "/src")],
            work, env=env, what="go build")
        return run([binary], work, env=env, what="running the Go program")

    def js_run(self, text, work, name):
        if not self.args.node:
            self.not_run.append(f"(node is not found here) the JavaScript program {name}")
            return SKIPPED
        modules = os.path.join(self.scratch, "js", "node_modules")
        package = os.path.join(modules, "@spongegen", "hashes")
        if not os.path.isdir(package):
            shutil.copytree(os.path.join(self.source, "js"), package,
                            ignore=shutil.ignore_patterns("node_modules", "kernels.js"))
            env = dict(os.environ, SPONGE_GENERATED_DIR=os.path.join(self.source, "generated"))
            run([self.args.node, os.path.join(package, "scripts", "embed.mjs")], work, env=env,
                what="the package's scripts/embed.mjs")
        # Beside node_modules, so node resolves the package's name from the program.
        program = os.path.join(self.scratch, "js", f"{os.path.basename(work)}-{name}.mjs")
        with open(program, "w", encoding="utf-8") as f:
            f.write(text)
        return run([self.args.node, program], work, what="running the JavaScript program")

    def rust_dependencies(self, text):
        try:
            manifest = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise BlockError(f"not TOML: {error}")
        dependencies = manifest.get("dependencies")
        if not dependencies:
            raise BlockError("a toml block names the [dependencies] of the next rust block")
        lines = []
        for name, spec in dependencies.items():
            package = spec.get("package", name) if isinstance(spec, dict) else name
            if package != "sponge":
                raise BlockError(f"the test builds only against this crate, not {package!r}")
            rename = ', package = "sponge"' if name != "sponge" else ""
            lines.append(f'{name} = {{ path = "{os.path.join(self.source, "rust")}"{rename} }}')
        return lines

    def rust_build_and_run(self, text, work, name, dependencies):
        if not self.args.cargo:
            self.not_run.append(f"(cargo is not found here) the Rust program {name}")
            return SKIPPED
        project = os.path.join(work, name + ".rust")
        os.makedirs(os.path.join(project, "src"))
        with open(os.path.join(project, "Cargo.toml"), "w", encoding="utf-8") as f:
            f.write(f'[package]\nname = "{name}"\nversion = "0.0.0"\nedition = "2021"\n\n'
                    "[dependencies]\n" + "\n".join(dependencies) + "\n")
        with open(os.path.join(project, "src", "main.rs"), "w", encoding="utf-8") as f:
            f.write(text)
        # rustup's toolchains stay where they are; the build and cargo's own files go to the
        # scratch folder.
        env = dict(os.environ)
        home = os.environ.get("HOME", "")
        if "RUSTUP_HOME" not in env and os.path.isdir(os.path.join(home, ".rustup")):
            env["RUSTUP_HOME"] = os.path.join(home, ".rustup")
        target = os.path.join(self.scratch, "cargo-target")
        env.update(CARGO_TARGET_DIR=target, CARGO_HOME=os.path.join(self.scratch, "cargo-home"))
        env.pop("SPONGE_KERNEL", None)
        run([self.args.cargo, "build", "--offline", "--quiet", "--release"], project, env=env,
            what="cargo build")
        return run([os.path.join(target, "release", name)], work, env=self.environment(work),
                   what="running the Rust program")

    # -- shell blocks
    def check_script(self, word):
        path = os.path.join(self.source, word)
        if not os.path.isfile(path):
            raise BlockError(f"{word} does not exist")
        if not os.access(path, os.X_OK):
            raise BlockError(f"{word} is not executable")
        run(["bash", "-n", path], self.source, what=f"bash -n {word}")
        if word not in self.scripts_checked:
            self.scripts_checked.append(word)

    def check_build_command(self, line, words):
        for word in words:
            m = re.match(r"^-D(SPONGE_[A-Z0-9_]+)(:[A-Z]+)?=", word)
            if m and m.group(1) not in self.options:
                raise BlockError(f"{m.group(1)} is no option of the project: {line}")
            m = re.match(r"^-DCMAKE_TOOLCHAIN_FILE=(.*)$", word)
            if m:
                toolchain = m.group(1).replace("$PWD/", "")
                if not os.path.isfile(os.path.join(self.source, toolchain)):
                    raise BlockError(f"no toolchain file {toolchain}: {line}")
        if "ctest" in words:
            for flag, value in zip(words, words[1:]):
                if flag == "-R":
                    listed = run([self.args.ctest, "--test-dir", self.build, "-N", "-R", value],
                                 self.build, what="ctest -N")
                    if not re.search(r"Total Tests: [1-9]", listed):
                        raise BlockError(f"ctest -R {value} matches no test of this build")
        self.not_run.append(" ".join(words))

    def shell_block(self, language, text, work):
        commands = shell_commands(text, language == "console")
        kinds = set()
        for line, words in commands:
            for program in programs_of(words):
                if program.startswith("scripts/"):
                    kinds.add("script")
                    self.check_script(program)
                elif program in BUILD_PROGRAMS:
                    kinds.add("build")
                elif program == "spongegen":
                    sub = words[words.index("spongegen") + 1:words.index("spongegen") + 2]
                    if not sub or sub[0] not in SPONGEGEN_RUNNABLE:
                        kinds.add("build")
                    else:
                        kinds.add("run")
                elif program in RUN_PROGRAMS or program.startswith("./"):
                    kinds.add("run")
                elif program in OPENSSL_PROGRAMS:
                    kinds.add("run")
                    kinds.add("openssl")
                else:
                    raise BlockError(f"the test does not know the program {program!r}: {line}")
        if "run" in kinds and "build" in kinds:
            raise BlockError("a block mixes commands that run with build commands, which are "
                             "only checked: split it")
        if "run" in kinds:
            # The scripts/ lines were checked above; the other commands run.
            text = "\n".join(line for line, words in commands
                             if not any(program.startswith("scripts/")
                                        for program in programs_of(words))) + "\n"
            if PREFIX in text:
                text = text.replace(PREFIX, self.install_prefix())
            if "openssl" in kinds and not (self.args.openssl and self.args.python):
                self.not_run.append("(no OpenSSL provider test here) " + text.strip())
                return SKIPPED
            for tool in ("spongegen", "spongesum"):
                if tool in text and not getattr(self.args, tool):
                    self.not_run.append(f"({tool} is not built here) " + text.strip())
                    return SKIPPED
            if self.args.spongegen_check_without_proof:
                text = re.sub(r"\bspongegen check\b", "spongegen check --no-prove", text)
            script = "set -e\n" + text
            return run(["bash", "-c", script], work, env=self.environment(work),
                       what="the block's commands")
        for line, words in commands:
            if any(program in BUILD_PROGRAMS or program == "spongegen"
                   for program in programs_of(words)):
                self.check_build_command(line, words)
        return None

    # -- other blocks
    def cmake_block(self, text, work):
        self.consumers += 1
        project = os.path.join(self.scratch, f"cmake-consumer-{self.consumers}")
        shutil.copytree(work, project, symlinks=True)
        with open(os.path.join(project, "CMakeLists.txt"), "w", encoding="utf-8") as f:
            f.write(text)
        build = os.path.join(project, "build")
        command = [self.args.cmake, "-S", project, "-B", build,
                   f"-DCMAKE_PREFIX_PATH={self.install_prefix()}",
                   f"-DCMAKE_CXX_COMPILER={self.args.cxx}", f"-DCMAKE_C_COMPILER={self.args.cc}"]
        if self.args.flags:
            command += [f"-DCMAKE_CXX_FLAGS={self.args.flags}", f"-DCMAKE_C_FLAGS={self.args.flags}"]
        run(command, project, what="configuring the consumer")
        run([self.args.cmake, "--build", build], project, what="building the consumer")
        output = ""
        for name in re.findall(r"add_executable\(\s*([A-Za-z0-9_]+)", text):
            output += run([os.path.join(build, name)], project, env=self.environment(project),
                          what=f"running {name}")
        return output

    def bat_block(self, text, work):
        for line in text.split("\n"):
            if not line.strip():
                continue
            words = line.replace("\\", "/").split()
            if words[:2] != ["clang", "--target=x86_64-pc-windows-msvc"] or "-c" not in words:
                raise BlockError(f"the test runs only clang --target=... -c lines: {line}")
            source = words[words.index("-c") + 1]
            out = os.path.join(work, os.path.basename(source) + ".obj")
            run([self.args.clang, "--target=x86_64-pc-windows-msvc", "-c",
                 os.path.join(self.source, source), "-o", out], work, what="clang (MSVC target)")
        return None

    @staticmethod
    def compare(expected, actual):
        want = expected.rstrip("\n").split("\n")
        got = actual.rstrip("\n").split("\n") if actual.strip() else []

        def match(i, j):
            if i == len(want):
                return j == len(got)
            if want[i] == "...":
                return any(match(i + 1, k) for k in range(j, len(got) + 1))
            if j == len(got):
                return False
            pattern = ".*".join(re.escape(piece) for piece in want[i].split("..."))
            return re.fullmatch(pattern, got[j]) is not None and match(i + 1, j + 1)

        if not match(0, 0):
            raise BlockError("the output differs from the text block.\nexpected:\n" + expected +
                             "actual:\n" + actual)

    def document(self, path):
        rel = os.path.relpath(path, self.source)
        work = os.path.join(self.scratch, rel.replace("/", "_") + ".work")
        os.makedirs(work)
        for name in ("generated", "tests"):
            os.symlink(os.path.join(self.source, name), os.path.join(work, name))
        programs = {}
        remaining = {}  # per program=NAME, its pieces not yet seen
        try:
            blocks = parse_blocks(path)
            for line, info, _ in blocks:
                name = parse_info(info)[1].get("program")
                if name:
                    remaining[name] = remaining.get(name, 0) + 1
        except BlockError as error:
            print(f"FAIL {rel}: {error}", file=sys.stderr)
            return False
        last_output = None
        rust_dependencies = ['sponge = { path = "%s" }' % os.path.join(self.source, "rust")]
        for number, (line, info, text) in enumerate(blocks):
            where = f"{rel}:{line}"
            try:
                language, attributes = parse_info(info)
                output = None
                if language == "":
                    raise BlockError("an untagged fence: give it a language")
                if language in ("cpp", "c"):
                    name = attributes.get("program", f"block{number}")
                    programs[name] = programs.get(name, "") + text
                    if "file" in attributes:
                        with open(os.path.join(work, attributes["file"]), "w") as f:
                            f.write(programs[name])
                    if "program" in attributes:
                        remaining[name] -= 1
                        if remaining[name] > 0:
                            last_output = None
                            continue
                    output = self.compile_and_run(language, programs[name], work, name)
                elif language == "go":
                    output = self.go_build_and_run(text, work, f"block{number}")
                elif language in ("sh", "console"):
                    output = self.shell_block(language, text, work)
                elif language == "text":
                    if last_output is SKIPPED:
                        print(f"skip {where} text (the block before it did not run here)")
                        last_output = None
                        continue
                    if last_output is None:
                        raise BlockError("a text block (output) must follow a block that ran")
                    self.compare(text, last_output)
                elif language in ("ini", "python"):
                    if "file" not in attributes:
                        raise BlockError(f"an {language} block needs file=NAME")
                    if PREFIX in text:
                        text = text.replace(PREFIX, self.install_prefix())
                    with open(os.path.join(work, attributes["file"]), "w") as f:
                        f.write(text)
                elif language == "toml":
                    rust_dependencies = self.rust_dependencies(text)
                elif language == "rust":
                    output = self.rust_build_and_run(text, work, f"block{number}",
                                                     rust_dependencies)
                elif language == "js":
                    output = self.js_run(text, work, f"block{number}")
                elif language == "cmake":
                    output = self.cmake_block(text, work)
                elif language == "bat":
                    output = self.bat_block(text, work)
                else:
                    raise BlockError(f"the test does not know the language {language!r}")
                last_output = output
                self.counts[language] = self.counts.get(language, 0) + 1
                print(f"ok   {where} {language}")
            except (BlockError, subprocess.TimeoutExpired) as error:
                print(f"FAIL {where} {info!r}: {error}", file=sys.stderr)
                return False
        return True


def heading_anchor(heading):
    """The anchor GitHub gives a heading: lower case, punctuation but '-' and '_' dropped,
    spaces as '-'."""
    text = re.sub(r"`|\*\*|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def markdown_anchors(path):
    anchors, in_code = set(), False
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("```"):
                in_code = not in_code
            elif not in_code and line.startswith("#"):
                anchors.add(heading_anchor(line.lstrip("#")))
    return anchors


def check_links(document, source):
    """Returns one message per relative link of `document` that names nothing."""
    problems, in_code = [], False
    with open(document, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if line.startswith("```"):
                in_code = not in_code
                continue
            if in_code:
                continue
            for target in re.findall(r"\]\(([^)\s]+)\)", re.sub(r"`[^`]*`", "", line)):
                if re.match(r"[a-z]+:", target):
                    continue  # https:, mailto:
                path, _, fragment = target.partition("#")
                resolved = os.path.normpath(
                    os.path.join(os.path.dirname(document), path)) if path else document
                where = f"{os.path.relpath(document, source)}:{number}: link {target}"
                if not os.path.exists(resolved):
                    problems.append(f"{where}: no such file")
                elif fragment and resolved.endswith(".md") and \
                        fragment not in markdown_anchors(resolved):
                    problems.append(f"{where}: no heading with that anchor")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", required=True)
    parser.add_argument("--build", required=True)
    parser.add_argument("--cxx", required=True)
    parser.add_argument("--cc", required=True)
    parser.add_argument("--clang", default="clang")
    parser.add_argument("--cmake", default="cmake")
    parser.add_argument("--ctest", default="ctest")
    parser.add_argument("--flags", default="")
    parser.add_argument("--c-libraries", default="")
    parser.add_argument("--include", required=True)
    parser.add_argument("--library", required=True)
    parser.add_argument("--spongesum", default="")
    parser.add_argument("--spongegen", default="")
    parser.add_argument("--go", default="")
    parser.add_argument("--openssl", default="")
    parser.add_argument("--python", default="")
    parser.add_argument("--gocode", default="/usr/share/gocode")
    parser.add_argument("--cargo", default="")
    parser.add_argument("--node", default="")
    # Builds whose generator is too slow to prove every kernel in a test (sanitizers, Debug):
    # `spongegen check` runs there with --no-prove (the proof has tests of its own).
    parser.add_argument("--spongegen-check-without-proof", action="store_true")
    parser.add_argument("documents", nargs="*")
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # "ok" lines and FAIL messages in order
    checker = Checker(args)
    documents = args.documents or (
        [os.path.join(args.source, "README.md")] +
        sorted(os.path.join(args.source, "docs", name)
               for name in os.listdir(os.path.join(args.source, "docs")) if name.endswith(".md")))
    ok = True
    link_documents = documents + [os.path.join(args.source, "bench", "README.md")]
    for problem in (p for d in link_documents for p in check_links(os.path.abspath(d), args.source)):
        print("FAIL " + problem)
        ok = False
    try:
        for document in documents:
            ok = checker.document(os.path.abspath(document)) and ok
    finally:
        shutil.rmtree(checker.scratch, ignore_errors=True)
    print("blocks by language: " +
          ", ".join(f"{language} {count}" for language, count in sorted(checker.counts.items())))
    print("scripts checked (exist, executable, bash -n), not run here: " +
          ", ".join(checker.scripts_checked))
    print("commands checked, not run here (build commands):")
    for command in checker.not_run:
        print("  " + command)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
