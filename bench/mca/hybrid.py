#!/usr/bin/env python3
"""Models a hybrid the AVX2 kernel might become: amd64-avx2-x4's four states with a fifth
state on the general-purpose registers (amd64-bmi2's rounds) in one instruction stream.

It takes four rounds of each kernel's loop from generated/ (loop control dropped; the
scalar state moved to stack offsets of its own; the vector loop's constant pointer moved
from rax to r14, which the scalar rounds leave free once lane 17 lives in memory, as in
the Go file), interleaves them in proportion, and runs llvm-mca on the three streams:
modelled cycles, not measured, and register clashes beyond that one are not resolved.
    bench/mca/hybrid.py [CPU ...]        (default: znver2 znver3 icelake-server)
"""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def loop_body(path, label, end):
    """The lines from LOCAL(label): to the branch back to it, comments and control left out."""
    lines = (ROOT / path).read_text().split('\n')
    start = lines.index(f'LOCAL({label}):')
    body = []
    for line in lines[start + 1:]:
        code = line.split('//')[0].rstrip()
        if re.match(rf'\s*jne LOCAL\({label}\)', code):
            break
        if not code.strip() or code.strip().endswith(':') or re.match(end, code):
            continue
        body.append(re.sub(r'LOCAL\((\w+)\)', r'\1', code))
    return body


def scalar_on_stack(line):
    line = re.sub(r'\[rsp \+ (\d+)\]', lambda m: f'[rsp + {1024 + int(m.group(1))}]', line)
    line = line.replace('[rsp]', '[rsp + 1024]')
    line = re.sub(r'\[rdi \+ (\d+)\]', lambda m: f'[rsp + {1536 + int(m.group(1))}]', line)
    return line.replace('[rdi]', '[rsp + 1536]')


def main():
    cpus = sys.argv[1:] or ['znver2', 'znver3', 'icelake-server']
    vector = loop_body('generated/keccakf1600_amd64_avx2_x4.S',
                       'keccakf1600_amd64_avx2_x4_rounds_loop', r'\s*(add rax|lea rcx|cmp rax)')
    vector = [re.sub(r'\brax\b', 'r14', line) for line in vector]  # 4 rounds
    scalar = loop_body('generated/keccakf1600_amd64_bmi2.S', 'keccakf1600_amd64_bmi2_loop',
                       r'\s*(add qword ptr \[rsp \+ 200\]|lea rax, qword ptr \[rip|'
                       r'cmp qword ptr \[rsp \+ 200\])')
    scalar = [scalar_on_stack(line) for line in scalar] * 2  # 2 rounds a turn: 4 rounds
    hybrid, i, j = [], 0, 0
    while i < len(vector) or j < len(scalar):
        if j >= len(scalar) or (i < len(vector) and i / len(vector) <= j / len(scalar)):
            hybrid.append(vector[i])
            i += 1
        else:
            hybrid.append(scalar[j])
            j += 1
    streams = {'avx2-x4 (4 states)': vector, 'bmi2 (1 state)': scalar,
               'hybrid (5 states)': hybrid}
    print('llvm-mca-14, cycles per four rounds (modelled):')
    for cpu in cpus:
        cycles = {}
        for name, lines in streams.items():
            text = '.intel_syntax noprefix\n' + '\n'.join(lines) + '\n'
            out = subprocess.run(['llvm-mca-14', f'-mcpu={cpu}', '-iterations=200'], input=text,
                                 capture_output=True, text=True, check=True).stdout
            cycles[name] = int(re.search(r'Total Cycles:\s+(\d+)', out).group(1)) / 200
        gain = (5 / cycles['hybrid (5 states)']) / (4 / cycles['avx2-x4 (4 states)'])
        print(f'  {cpu:15} ' + ', '.join(f'{k} {v:.1f}' for k, v in cycles.items()) +
              f'; states a cycle, hybrid / avx2-x4: {gain:.2f}x')


if __name__ == '__main__':
    main()
