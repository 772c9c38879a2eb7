"""The step kernel's machine code for sm_90, read without a GPU.

    .venv/bin/python benchmarks/gpu/step_kernel_sass.py [-- EXTRA_NVCC_FLAGS ...]

Compiles kernels/env_step.cu as the build does (plus any extra flags, e.g.
-DCULE_BUS_FAST_PATHS=0), prints ptxas's registers, stack and spills, then
disassembles it (nvdisasm, from PyPI's nvidia-cuda-nvdisasm, which this
installs into the project venv when no CUDA toolkit here has it) and
counts the instructions of the console's frame (console_run_frame), of
its CPU loops (one per common cartridge scheme, and one for any scheme)
and of the 2K loop's out-of-line bus accesses:
all, local-memory loads and stores (the CPU's state where it does not stay
in registers, and spills), generic and global loads and stores, calls and
branches. Static counts, not timings: a change's effect on the GPU is
measured only on one (benchmarks/gpu/check.sh).
"""

import collections
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NVCC_FLAGS = ["-O3", "-DNDEBUG", "-DCULE_CPU_LOOPS_IN_LIBRARY=1", "-DCULE_WITH_CUDA=1",
              "--fmad=false", "-std=c++17", f"-I{ROOT}", "-arch=sm_90"]
SHOWN = r"env_step_kernel|console_run_frame|read_device|write_device|read_tia|write_tia"
COUNTED = ["LDL", "STL", "LD", "ST", "LDG", "STG", "CALL", "BRA"]
# ConsoleBus's template argument (a Mapper, or kAnyMapper) as mangled.
SCHEMES = {"0": "2K", "1": "4K", "2": "F8", "5": "F6", "n1": "any"}


def tool(name):
    toolkit = Path("/usr/local/cuda/bin") / name
    found = shutil.which(name) or (str(toolkit) if toolkit.exists() else None)
    if found:
        return found
    site = Path(sysconfig.get_paths()["purelib"]) / "nvidia"
    installed = sorted(site.glob(f"cu*/bin/{name}"))
    if not installed and name == "nvdisasm":
        print("(installing nvidia-cuda-nvdisasm into this venv)", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "nvidia-cuda-nvdisasm"],
                       check=True)
        installed = sorted(site.glob(f"cu*/bin/{name}"))
    if not installed:
        sys.exit(f"step_kernel_sass.py: no {name} found")
    return str(installed[-1])


def functions(sass, kernel):
    """Instructions (address, opcode, operands) of each function in `kernel`'s
    section of the disassembly (each kernel has copies of the functions it
    calls), and the addresses of its labels."""
    code = collections.defaultdict(list)
    labels = {}
    section, name, pending = None, None, []
    for line in sass.splitlines():
        m = re.match(r"^\s*\.section\s+\.text\.(\S+?),", line)
        if m:
            section, name = m.group(1), None
            continue
        if section is None or kernel not in section:
            continue
        m = re.match(r"^\$\S+?\$(_ZN4cule\S*):\s*$", line) or re.match(r"^(_ZN4cule\S*):\s*$", line)
        if m:
            name = m.group(1)
            continue
        m = re.match(r"^(\.L_x_\d+):", line)
        if m:
            pending.append(m.group(1))
            continue
        m = re.match(r"\s*/\*([0-9a-f]+)\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)(.*)", line)
        if m and name:
            address = int(m.group(1), 16)
            for label in pending:
                labels[label] = address
            pending = []
            code[name].append((address, m.group(3), m.group(4), m.group(2) is not None))
    return code, labels


def loops(instructions, labels):
    """The outermost loops of a function, each as the set of its
    instructions' indices: for each branch to an instruction that every
    path from the function's entry to the branch passes (a loop's head),
    the instructions from which the branch is reached without passing the
    head (its natural loop; the compiler may place a loop's parts apart,
    e.g. a rare path after the function's end). Indirect branches (BRX)
    are not followed."""
    index = {address: k for k, (address, *_) in enumerate(instructions)}
    following = collections.defaultdict(list)
    preceding = collections.defaultdict(list)
    branches = []
    for k, (address, op, rest, guarded) in enumerate(instructions):
        m = re.search(r"(\.L_x_\d+)", rest)
        target = index.get(labels.get(m.group(1))) if m and op == "BRA" else None
        if target is not None:
            following[k].append(target)
            branches.append((k, target))
        ends = op in ("BRA", "EXIT", "RET") and not guarded and not rest.startswith(".DIV")
        if not ends and k + 1 < len(instructions):
            following[k].append(k + 1)
    for k, targets in following.items():
        for target in targets:
            preceding[target].append(k)

    def reached(start, avoiding, found):
        seen, pending = {avoiding}, [start]
        while pending:
            k = pending.pop()
            if k == found:
                return True
            if k not in seen:
                seen.add(k)
                pending.extend(following[k])
        return False

    bodies = collections.defaultdict(set)
    for latch, head in branches:
        if latch in bodies[head] or (latch != head and reached(0, head, latch)):
            continue
        body = bodies[head]
        body.add(head)
        pending = [latch]
        while pending:
            k = pending.pop()
            if k not in body:
                body.add(k)
                pending.extend(preceding[k])
    return [b for h, b in sorted(bodies.items())
            if b and not any(h2 != h and h in b2 for h2, b2 in bodies.items())]


def counts(instructions):
    c = collections.Counter(op for _, op, *_ in instructions)
    return f"{len(instructions):6d} instructions, " + ", ".join(f"{k} {c[k]}" for k in COUNTED)


def main():
    extra = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    nvcc, nvdisasm = tool("nvcc"), tool("nvdisasm")
    with tempfile.TemporaryDirectory() as tmp:
        cubin = os.path.join(tmp, "env_step.cubin")
        ptxas = subprocess.run(
            [nvcc, *NVCC_FLAGS, *extra, "-cubin", "-Xptxas", "-v",
             str(ROOT / "kernels/env_step.cu"), "-o", cubin],
            check=True, capture_output=True, text=True).stderr
        sass = subprocess.run([nvdisasm, "-c", cubin], check=True, capture_output=True,
                              text=True).stdout
    print(f"nvcc {' '.join(extra) or '(no extra flags)'}, sm_90")
    # ptxas -v, per kernel: "Compiling entry function K", then "Function
    # properties for F" and "N bytes stack frame, ..." for K and what it
    # calls, with "Used N registers" after K's.
    lines = ptxas.splitlines()
    in_step = False
    for i, line in enumerate(lines):
        if "Compiling entry function" in line:
            in_step = "env_step_kernel" in line
        m = re.search(r"Function properties for (\S+)", line)
        if in_step and m and i + 1 < len(lines):
            shown = re.search(SHOWN, m.group(1))
            if shown:
                bus = re.search(r"ConsoleBusILi(n?\d+)EE", m.group(1))
                label = shown.group(0) + (f" ({SCHEMES.get(bus.group(1), '?')})" if bus else "")
                print(f"  {label:23} {lines[i + 1].strip()}")
        if in_step and "Used" in line and "registers" in line:
            print(f"  {'':23} {line.split(':', 1)[1].strip()}")
    code, labels = functions(sass, "env_step_kernel")
    frame = next((v for k, v in code.items() if "console_run_frame" in k), None)
    if not frame:
        sys.exit("step_kernel_sass.py: console_run_frame not found in the disassembly")
    print(f"console_run_frame: {counts(frame)}")
    # The CPU's loops, one per cartridge scheme (see console_run_frame_here):
    # the outermost loops around calls of ConsoleBus<scheme>'s out-of-line
    # accesses, named by that template argument.
    cpu_loops = {}
    for body in loops(frame, labels):
        instructions = [frame[k] for k in sorted(body)]
        schemes = {m.group(1) for _, op, rest, _ in instructions if op == "CALL"
                   for m in [re.search(r"ConsoleBusILi(n?\d+)EE", rest)] if m}
        if len(schemes) == 1:
            scheme = schemes.pop()
            if scheme in cpu_loops:
                print(f"  (a second loop of scheme {SCHEMES.get(scheme, scheme)}: both counted)")
                instructions = sorted(cpu_loops[scheme] + instructions)
            cpu_loops[scheme] = instructions
    for scheme in sorted(cpu_loops, key=lambda s: list(SCHEMES).index(s) if s in SCHEMES else 99):
        name = SCHEMES.get(scheme, "?")
        print(f"  CPU loop, {name + ':':4} {counts(cpu_loops[scheme])}")
    # The 2K loop's out-of-line accesses (each a divergent call in a warp).
    for name in ("read_device", "write_device", "read_tia", "write_tia"):
        for function, instructions in code.items():
            if re.search(rf"ConsoleBusILi0EE\d+{name}", function):
                print(f"  {name + ' (2K):':19} {counts(instructions)}")


if __name__ == "__main__":
    main()
