# arrc_add_module(<target> <file.arr>... [INCLUDE_DIRS <dir>...])
#
# For each .arr file, runs the arrc compiler at build time to generate
# <stem>.hpp into ${CMAKE_CURRENT_BINARY_DIR}/arrc_modules/ (regenerated when
# the .arr file, a file it imports, the stdlib or the compiler changes: arrc
# writes the sources it read to a depfile), adds that directory to <target>'s
# include path and links arrc::runtime. The C++ code then does
#   #include "<stem>.hpp"   // namespace <stem> { ... one function per export }
#
# The compiler is ${ARRC_EXECUTABLE} (set by arrc-config.cmake to the
# installed `arrc`, or to the in-tree target inside the arrc build).
function(arrc_add_module target)
  cmake_parse_arguments(PARSE_ARGV 1 ARRC "" "" "INCLUDE_DIRS")
  if(NOT ARRC_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "arrc_add_module(${target} ...): no .arr file given")
  endif()
  if(NOT ARRC_EXECUTABLE)
    message(FATAL_ERROR "arrc_add_module: ARRC_EXECUTABLE is not set (find_package(arrc) first)")
  endif()
  set(outdir ${CMAKE_CURRENT_BINARY_DIR}/arrc_modules)
  file(MAKE_DIRECTORY ${outdir})
  set(includes)
  foreach(dir IN LISTS ARRC_INCLUDE_DIRS)
    list(APPEND includes -I ${dir})
  endforeach()
  set(headers)
  foreach(src IN LISTS ARRC_UNPARSED_ARGUMENTS)
    get_filename_component(abs ${src} ABSOLUTE)
    get_filename_component(stem ${src} NAME_WE)
    set(hdr ${outdir}/${stem}.hpp)
    set(compiler_dep)
    if(TARGET ${ARRC_EXECUTABLE})
      set(compiler_dep ${ARRC_EXECUTABLE})
    elseif(EXISTS ${ARRC_EXECUTABLE})
      set(compiler_dep ${ARRC_EXECUTABLE})
    endif()
    add_custom_command(
      OUTPUT ${hdr}
      COMMAND ${ARRC_EXECUTABLE} ${abs} ${includes} -o ${hdr} --depfile ${hdr}.d
      DEPENDS ${abs} ${compiler_dep}
      DEPFILE ${hdr}.d
      COMMENT "arrc: generating ${stem}.hpp from ${src}"
      VERBATIM)
    list(APPEND headers ${hdr})
  endforeach()
  target_sources(${target} PRIVATE ${headers})
  target_include_directories(${target} PRIVATE ${outdir})
  target_link_libraries(${target} PRIVATE arrc::runtime)
endfunction()
