// arrc runtime: the one place that includes the OpenCL C API.
//
// The runtime targets OpenCL 1.2 host APIs (kernels are built with
// -cl-std=CL1.2), so every translation unit that includes an arrc header sees
// the same CL_TARGET_OPENCL_VERSION. If a user project already defined a
// different target version, we keep theirs; 1.2 APIs exist in every version.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#ifndef CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wignored-attributes"
#endif
#endif
#if defined(__APPLE__)
#include <OpenCL/cl.h>
#else
#include <CL/cl.h>
#endif
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif
