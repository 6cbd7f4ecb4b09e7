// arrc runtime: umbrella header. Generated code includes only this.
#pragma once

#include <arrc/opencl.h>
#include <arrc/error.h>
#include <arrc/context.h>
#include <arrc/array.h>
#include <arrc/primitives.h>
