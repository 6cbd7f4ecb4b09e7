#!/usr/bin/env python3
"""Regenerates the lists of names that generated code must not capture.

Writes (run from anywhere; needs g++, clang, clang++ and the OpenCL headers):
  codegen/src/ReservedNames.inc   names an exported C++ name may not have:
                                  C++ keywords and every macro the C++, C
                                  compatibility, POSIX and OpenCL host headers
                                  define in C++ mode (docs/codegen.md, "Names")
  test/e2e/names/cpp_keywords.txt       C++ (and GNU) keywords
  test/e2e/names/c_posix_macros.txt     macros of the C, C++ and POSIX headers
                                        (C and C++ mode) and OpenCL host headers
  test/e2e/names/opencl_c.txt           OpenCL C keywords, types, built-in
                                        functions and the device headers' macros
Names that begin with an underscore are left out of the lists: arrc mangles
every name that the C++ standard reserves (a leading `_` + capital, `__`).
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CPP_KEYWORDS = """
alignas alignof and and_eq asm atomic_cancel atomic_commit atomic_noexcept auto bitand bitor bool
break case catch char char8_t char16_t char32_t class compl concept const consteval constexpr
constinit const_cast continue co_await co_return co_yield decltype default delete do double
dynamic_cast else enum explicit export extern false float for friend goto if inline int long
mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected public
reflexpr register reinterpret_cast requires return short signed sizeof static static_assert
static_cast struct switch synchronized template this thread_local throw true try typedef typeid
typename union unsigned using virtual void volatile wchar_t while xor xor_eq
final override import module transaction_safe transaction_safe_dynamic
typeof typeof_unqual restrict _Bool _Complex _Imaginary _Atomic _Noreturn _Alignas _Alignof
_Static_assert _Thread_local _Generic _Pragma
""".split()

# Predefined by some compiler on some target without a leading underscore
# (gcc/clang in GNU modes): not all visible on this machine.
PREDEFINED = "linux unix i386 sun sparc mips".split()

POSIX_HEADERS = """aio.h arpa/inet.h assert.h complex.h cpio.h ctype.h dirent.h dlfcn.h errno.h fcntl.h
fenv.h float.h fmtmsg.h fnmatch.h ftw.h glob.h grp.h iconv.h inttypes.h iso646.h langinfo.h libgen.h
limits.h locale.h math.h monetary.h mqueue.h ndbm.h net/if.h netdb.h netinet/in.h netinet/tcp.h
nl_types.h poll.h pthread.h pwd.h regex.h sched.h search.h semaphore.h setjmp.h signal.h spawn.h
stdarg.h stdbool.h stddef.h stdint.h stdio.h stdlib.h string.h strings.h stropts.h sys/ipc.h
sys/mman.h sys/msg.h sys/resource.h sys/select.h sys/sem.h sys/shm.h sys/socket.h sys/stat.h
sys/statvfs.h sys/time.h sys/times.h sys/types.h sys/uio.h sys/un.h sys/utsname.h sys/wait.h
syslog.h tar.h termios.h tgmath.h time.h trace.h ulimit.h unistd.h utime.h utmpx.h wchar.h
wctype.h wordexp.h stdalign.h stdatomic.h stdnoreturn.h threads.h uchar.h""".split()

CXX_HEADERS = """algorithm any array atomic bitset cassert ccomplex cctype cerrno cfenv cfloat charconv
chrono cinttypes ciso646 climits clocale cmath codecvt complex condition_variable csetjmp csignal
cstdalign cstdarg cstdbool cstddef cstdint cstdio cstdlib cstring ctgmath ctime cuchar cwchar
cwctype deque exception execution filesystem forward_list fstream functional future
initializer_list iomanip ios iosfwd iostream istream iterator limits list locale map memory
memory_resource mutex new numeric optional ostream queue random ratio regex scoped_allocator set
shared_mutex sstream stack stdexcept streambuf string string_view system_error thread tuple
type_traits typeindex typeinfo unordered_map unordered_set utility valarray variant
vector""".split()

CL_HOST_HEADERS = ["CL/opencl.h", "CL/cl_ext.h", "CL/cl_gl.h"]

OPENCL_KEYWORDS = """
__kernel kernel __global global __local local __constant constant __private private
__read_only read_only __write_only write_only __read_write read_write uniform pipe
__attribute__ typedef struct union enum sizeof vec_step auto extern register static inline
const volatile restrict if else switch case default for while do break continue goto return
bool char uchar short ushort int uint long ulong float double half void size_t ptrdiff_t
intptr_t uintptr_t image1d_t image2d_t image3d_t image1d_array_t image2d_array_t
image1d_buffer_t image2d_depth_t image2d_array_depth_t sampler_t event_t queue_t ndrange_t
clk_event_t reserve_id_t cl_mem_fence_flags quad complex imaginary unsigned signed
true false
""".split()


def run(cmd, text):
    p = subprocess.run(cmd, input=text, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), p.stderr[-2000:]))
    return p.stdout


def macros(cmd, includes):
    text = "".join('#include <%s>\n' % h for h in includes)
    out = run(cmd + ["-dM", "-E", "-"], text)
    names = set()
    for line in out.splitlines():
        m = re.match(r"#define\s+([A-Za-z_][A-Za-z0-9_]*)", line)
        if m:
            names.add(m.group(1))
    return names


DECL_KINDS = {"FunctionDecl", "VarDecl", "RecordDecl", "CXXRecordDecl", "TypedefDecl", "EnumDecl",
              "NamespaceDecl", "TypeAliasDecl", "FunctionTemplateDecl", "ClassTemplateDecl",
              "EnumConstantDecl", "UsingDecl", "VarTemplateDecl", "TypeAliasTemplateDecl"}


def global_declarations(dump):
    """Names declared at global scope in a clang -ast-dump (inside extern "C"
    blocks too), with the enumerators of unscoped global enums."""
    names, stack = set(), []
    for line in dump.splitlines():
        m = re.match(r"^((?:[| ] )*)[|`]-(\w+)", line)
        if not m:
            continue
        depth, kind = len(m.group(1)) // 2, m.group(2)
        del stack[depth:]
        stack.append(kind)
        anc = stack[:-1]
        enumerator = kind == "EnumConstantDecl" and anc and anc[-1] == "EnumDecl" and "class" not in line
        if not all(a == "LinkageSpecDecl" for a in (anc[:-1] if enumerator else anc)):
            continue
        if kind not in DECL_KINDS or (kind == "EnumConstantDecl" and not enumerator):
            continue
        t = re.findall(r"\b([A-Za-z_][A-Za-z0-9_]*)\b(?= '| definition\s*$|\s*$)", line[m.end():])
        if t:
            names.add(t[0])
    return names


def existing(headers):
    return [h for h in headers if os.path.exists(os.path.join("/usr/include", h))]


def public(names):
    return sorted(n for n in names if not n.startswith("_"))


def main():
    posix = existing(POSIX_HEADERS)
    cxx_modes = [["g++", "-std=gnu++17"], ["g++", "-std=c++17"], ["clang++", "-std=gnu++17"],
                 ["clang++", "-std=c++17"], ["g++", "-std=gnu++17", "-O2", "-pthread"],
                 ["g++", "-std=gnu++17", "-D_GNU_SOURCE", "-D_FILE_OFFSET_BITS=64", "-D_XOPEN_SOURCE=700"]]
    cxx = set()
    for mode in cxx_modes:
        for group in (posix, CXX_HEADERS, CL_HOST_HEADERS):
            cxx |= macros(mode + ["-x", "c++", "-w"], group)
    c = set()
    for mode in (["gcc", "-std=gnu17"], ["clang", "-std=c17"], ["gcc", "-std=gnu17", "-O2"]):
        for group in (posix, CL_HOST_HEADERS):
            c |= macros(mode + ["-x", "c", "-w"], group)
    cl = macros(["clang", "-x", "cl", "-cl-std=CL1.2", "-Xclang", "-finclude-default-header"], [])
    pocl = "/usr/share/pocl/include"
    if os.path.exists(os.path.join(pocl, "_kernel.h")):
        cl |= macros(["clang", "-x", "cl", "-cl-std=CL1.2", "-I", pocl, "-include", "_kernel.h",
                      "-Xclang", "-fdeclare-opencl-builtins"], [])
    # Built-in functions: every name declared in clang's opencl-c.h.
    hdr = run(["clang", "-print-resource-dir"], "").strip() + "/include/opencl-c.h"
    builtins = set()
    with open(hdr) as f:
        for m in re.finditer(r"\b(?:__ovld|__cnfn)\b[^;{(]*?\b([A-Za-z_][A-Za-z0-9_]*)\s*\(", f.read()):
            builtins.add(m.group(1))
    vec = {t + str(n) for t in "char uchar short ushort int uint long ulong float double half".split()
           for n in (2, 3, 4, 8, 16)}

    reserved = set(CPP_KEYWORDS) | set(PREDEFINED) | {n for n in cxx if not n.startswith("_")}
    reserved = sorted(n for n in reserved if not n.startswith("_"))
    # Names declared at global scope by the same headers (functions, types,
    # variables, enumerators): a module's namespace may not take one.
    allh = "".join("#include <%s>\n" % h for h in posix + CXX_HEADERS + CL_HOST_HEADERS)
    dump = run(["clang++", "-std=gnu++17", "-w", "-fsyntax-only", "-fno-color-diagnostics", "-Xclang",
                "-ast-dump", "-x", "c++", "-"], allh)
    globals_ = sorted({n for n in global_declarations(dump) if not n.startswith("_")} - set(reserved))
    with open(os.path.join(ROOT, "codegen/src/ReservedNames.inc"), "w") as f:
        f.write("// Generated by scripts/gen_reserved_names.py: do not edit. Included by\n"
                "// Names.cpp (names with a leading underscore are reserved by rule there).\n"
                "// C++ keywords and every macro of the C++, C, POSIX and OpenCL host headers\n"
                "// in C++ mode, sorted.\n"
                "static const char *const kReservedCpp[] = {\n")
        for n in reserved:
            f.write('    "%s",\n' % n)
        f.write("};\n// Other names these headers declare at global scope, sorted.\n"
                "static const char *const kGlobalCpp[] = {\n")
        for n in globals_:
            f.write('    "%s",\n' % n)
        f.write("};\n")
    names = os.path.join(ROOT, "test/e2e/names")
    os.makedirs(names, exist_ok=True)

    def write(file, items, what):
        with open(os.path.join(names, file), "w") as f:
            f.write("# %s (scripts/gen_reserved_names.py)\n" % what)
            for n in sorted(set(items)):
                f.write(n + "\n")

    write("cpp_keywords.txt", CPP_KEYWORDS + PREDEFINED, "C++, C and GNU keywords; predefined macros")
    write("c_posix_macros.txt", public(cxx | c), "macros of the C, C++, POSIX and OpenCL host headers")
    write("opencl_c.txt", OPENCL_KEYWORDS + list(vec) + public(cl) + public(builtins),
          "OpenCL C keywords, types, built-in functions, device header macros")
    print("reserved %d, c/posix %d, opencl %d" % (len(reserved), len(public(cxx | c)),
                                                  len(set(OPENCL_KEYWORDS) | vec | set(public(cl)) | set(public(builtins)))))


if __name__ == "__main__":
    main()
