# lit configuration for arrc. Each stage keeps its tests in test/lit/<stage>/;
# every subfolder is searched (except Inputs/ folders, which hold helper files).
#
# Substitutions:
#   %arrc       the built driver (build/bin/arrc)
#   FileCheck   /usr/lib/llvm-14/bin/FileCheck
#   not         /usr/lib/llvm-14/bin/not (inverts the exit status)
#   %examples   the source tree's examples/ folder
#   %python     the Python interpreter
import os
import lit.formats

config.name = "arrc"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".arr", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = os.path.join(config.arrc_obj_root, "test", "lit")

config.substitutions.append(("%arrc", config.arrc_path))
config.substitutions.append(("%examples", os.path.join(config.arrc_src_root, "examples")))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append((r"(?<![\w/.-])FileCheck(?![\w.-])", config.filecheck_path))
config.substitutions.append((r"(?<![\w/.-])not(?= )", config.not_path))

# Tests must not depend on the user's environment.
for var in ["ARRC_STDLIB_DIR", "ARRC_DEVICE"]:
    config.environment.pop(var, None)
# (ARRC_CACHE_DIR: the suite's kernel and `arrc run` cache, see scripts/test.sh)
for var in ["HOME", "TMPDIR", "ARRC_CACHE_DIR"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]
