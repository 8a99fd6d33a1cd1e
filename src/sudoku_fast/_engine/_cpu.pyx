# cython: language_level=3
"""What the CPU reports: the instruction-set features the dispatcher (isa.py) checks.

On x86-64 the features come from the CPUID instruction. AVX and AVX-512 need the
operating system's help as well (it must save their registers on a task switch), which
the XGETBV instruction reports; a feature counts only when both agree. Built for the
baseline of the platform: nothing here may use an instruction it is asking about.
Other platforms report no features (arm64 runs its baseline build).
"""

cdef extern from *:
    """
    #if defined(__x86_64__) || defined(_M_X64) || defined(__i386__) || defined(_M_IX86)
    #define CPU_X86 1
    #if defined(_MSC_VER)
    #include <intrin.h>
    static void cpu_cpuid(unsigned int leaf, unsigned int sub, unsigned int r[4]) {
        int out[4];
        __cpuidex(out, (int)leaf, (int)sub);
        r[0] = (unsigned int)out[0]; r[1] = (unsigned int)out[1];
        r[2] = (unsigned int)out[2]; r[3] = (unsigned int)out[3];
    }
    static unsigned long long cpu_xgetbv(void) { return _xgetbv(0); }
    #else
    #include <cpuid.h>
    static void cpu_cpuid(unsigned int leaf, unsigned int sub, unsigned int r[4]) {
        __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
    }
    /* Spelled as bytes: assemblers without XSAVE support still take it. */
    static unsigned long long cpu_xgetbv(void) {
        unsigned int eax, edx;
        __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(eax), "=d"(edx) : "c"(0));
        return ((unsigned long long)edx << 32) | eax;
    }
    #endif
    #else
    #define CPU_X86 0
    static void cpu_cpuid(unsigned int leaf, unsigned int sub, unsigned int r[4]) {
        (void)leaf; (void)sub; r[0] = r[1] = r[2] = r[3] = 0;
    }
    static unsigned long long cpu_xgetbv(void) { return 0; }
    #endif
    """
    int CPU_X86
    void cpu_cpuid(unsigned int leaf, unsigned int sub, unsigned int r[4]) nogil
    unsigned long long cpu_xgetbv() nogil

# (CPUID leaf, output register 0-3 = EAX, EBX, ECX, EDX, bit) of each feature.
FEATURE_BITS: dict[str, tuple[int, int, int]] = {
    "sse3": (1, 2, 0),
    "ssse3": (1, 2, 9),
    "fma": (1, 2, 12),
    "sse4_1": (1, 2, 19),
    "sse4_2": (1, 2, 20),
    "movbe": (1, 2, 22),
    "popcnt": (1, 2, 23),
    "osxsave": (1, 2, 27),
    "avx": (1, 2, 28),
    "f16c": (1, 2, 29),
    "bmi1": (7, 1, 3),
    "avx2": (7, 1, 5),
    "bmi2": (7, 1, 8),
    "avx512f": (7, 1, 16),
    "avx512dq": (7, 1, 17),
    "avx512cd": (7, 1, 28),
    "avx512bw": (7, 1, 30),
    "avx512vl": (7, 1, 31),
    "lzcnt": (0x80000001, 2, 5),
}
# Register state the OS must save (XCR0 bits): SSE and AVX; AVX-512's mask and upper
# ZMM registers on top.
XCR0_AVX = 0x6
XCR0_AVX512 = 0xE6
NEEDS_AVX_STATE = ("avx", "avx2", "fma", "f16c")


def features() -> frozenset[str]:
    """The instruction-set features of this CPU that the OS also enables (x86 names).

    Empty on platforms other than x86.
    """
    cdef unsigned int regs[4]
    cdef unsigned int top, top_extended
    cdef unsigned long long xcr0 = 0
    if not CPU_X86:
        return frozenset()
    cpu_cpuid(0, 0, regs)
    top = regs[0]
    cpu_cpuid(0x80000000, 0, regs)
    top_extended = regs[0]
    found = set()
    for name, (leaf, register, bit) in FEATURE_BITS.items():
        if leaf > (top_extended if leaf >= 0x80000000 else top):
            continue
        cpu_cpuid(leaf, 0, regs)
        if (regs[register] >> bit) & 1:
            found.add(name)
    if "osxsave" in found:
        xcr0 = cpu_xgetbv()
    if (xcr0 & XCR0_AVX) != XCR0_AVX:
        found.difference_update(NEEDS_AVX_STATE)
    if (xcr0 & XCR0_AVX512) != XCR0_AVX512:
        found.difference_update({name for name in found if name.startswith("avx512")})
    return frozenset(found)
