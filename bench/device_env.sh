# Sourced by the scripts that run on a bare GPU machine (the device tool,
# carry [".dev"]): unpacks the OpenCL loader and headers from .dev/*.deb,
# registers NVIDIA's OpenCL library as the loader's one vendor, and points
# the compiler and the loader at them and at .dev/prefix (arrc installed by
# `bash bench/run_e2e_device.sh --prepare`).
for f in .dev/*.deb; do dpkg -x "$f" /tmp/ocl; done
mkdir -p /tmp/icd
LIB=$(ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 2>/dev/null || find / -xdev -name 'libnvidia-opencl.so*' 2>/dev/null | head -1)
echo "$LIB" > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=/tmp/ocl/usr/lib/x86_64-linux-gnu:$PWD/.dev/prefix/lib:$LD_LIBRARY_PATH
# the generated programs' compiler finds the OpenCL headers and loader here
export CPATH=/tmp/ocl/usr/include LIBRARY_PATH=/tmp/ocl/usr/lib/x86_64-linux-gnu
