# install.cmake: what `cmake --install` puts where (GNU install dirs), and
# the packages CPack makes from it (`cpack --preset release`, or ci/package).
#
#   bin/zoneoracle                         the CLI
#   lib/libzoneoracle.a                    the library (the oracle in process)
#   include/zoneoracle/zo.h, zo_engine.h   its public headers
#   lib/pkgconfig/zoneoracle.pc            pkg-config --cflags --libs zoneoracle
#   lib/cmake/zoneoracle/                  find_package(zoneoracle): zoneoracle::zoneoracle
#   share/zoneoracle/cases/                the case suite (run with no PATH)
#   share/zoneoracle/protocol/             zcp/1: PROTOCOL.md, JSON Schemas, validate.py
#   share/zoneoracle/rulesets/             the rule sets, their format and schema
#   share/zoneoracle/smoke/                smoke's cases (checks.yaml, cases/)
#   share/zoneoracle/adapters/             adapter templates (Python, Node, C plugin)
#   share/doc/zoneoracle/                  README, CHANGELOG, LICENSE, INVARIANTS
#
# Every installed Markdown file's relative links lead to installed files
# (cmake/install_links.cmake rewrites them; oracle/tests/doc_links.py
# checks it).
#
# The installed CLI finds its data relative to itself (oracle/cli/datadir.c),
# so the tree works under any prefix.
include(CMakePackageConfigHelpers)
set(ZO_DATA ${CMAKE_INSTALL_DATADIR}/zoneoracle)

if(ZO_BUILD_CLI)
  install(TARGETS zoneoracle RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

set_target_properties(zoneoracle_lib PROPERTIES EXPORT_NAME zoneoracle
  PUBLIC_HEADER "${CMAKE_SOURCE_DIR}/oracle/include/zo.h;${CMAKE_SOURCE_DIR}/oracle/include/zo_engine.h")
install(TARGETS zoneoracle_lib EXPORT zoneoracleTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/zoneoracle)
install(EXPORT zoneoracleTargets NAMESPACE zoneoracle::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/zoneoracle)
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/zoneoracleConfig.cmake.in
  ${CMAKE_BINARY_DIR}/zoneoracleConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/zoneoracle
  PATH_VARS ZO_DATA)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/zoneoracleConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/zoneoracleConfig.cmake ${CMAKE_BINARY_DIR}/zoneoracleConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/zoneoracle)

# pkg-config: the library is static, so its dependencies are public. The
# prefix is found from the .pc file's own place, so an install moved to
# another prefix (cmake --install --prefix, a .tar.gz unpacked anywhere)
# still gives the right paths.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(ZO_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH ZO_PC_UP "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
  string(REGEX REPLACE "/$" "" ZO_PC_UP "${ZO_PC_UP}")
  set(ZO_PC_PREFIX "\${pcfiledir}/${ZO_PC_UP}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(ZO_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  set(ZO_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(ZO_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(ZO_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file(${CMAKE_SOURCE_DIR}/cmake/zoneoracle.pc.in ${CMAKE_BINARY_DIR}/zoneoracle.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/zoneoracle.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# data
install(DIRECTORY ${CMAKE_SOURCE_DIR}/cases/ DESTINATION ${ZO_DATA}/cases
  FILES_MATCHING PATTERN "*.yaml" PATTERN "*.yml" PATTERN "*.md" PATTERN "*.json")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/ci/protocol/ DESTINATION ${ZO_DATA}/protocol
  FILES_MATCHING PATTERN "*.json" PATTERN "*.md" PATTERN "*.py")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/oracle/rulesets/ DESTINATION ${ZO_DATA}/rulesets
  FILES_MATCHING PATTERN "*.yaml" PATTERN "*.md" PATTERN "*.json")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/oracle/smoke/ DESTINATION ${ZO_DATA}/smoke
  FILES_MATCHING PATTERN "*.yaml" PATTERN "*.md")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/ci/adapters/ DESTINATION ${ZO_DATA}/adapters
  PATTERN "__pycache__" EXCLUDE)
install(FILES README.md CHANGELOG.md LICENSE fuzz/INVARIANTS.md
  DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The installed Markdown files again, their relative links pointed at
# where the install put each target (cmake/install_links.cmake): what is
# installed where, by source path.
set(ZO_LINK_MAP
  "cases|${ZO_DATA}/cases"
  "ci/protocol|${ZO_DATA}/protocol"
  "oracle/rulesets|${ZO_DATA}/rulesets"
  "ci/adapters|${ZO_DATA}/adapters"
  "README.md|${CMAKE_INSTALL_DOCDIR}/README.md"
  "CHANGELOG.md|${CMAKE_INSTALL_DOCDIR}/CHANGELOG.md"
  "LICENSE|${CMAKE_INSTALL_DOCDIR}/LICENSE"
  "fuzz/INVARIANTS.md|${CMAKE_INSTALL_DOCDIR}/INVARIANTS.md"
  "oracle/include/zo.h|${CMAKE_INSTALL_INCLUDEDIR}/zoneoracle/zo.h"
  "oracle/include/zo_engine.h|${CMAKE_INSTALL_INCLUDEDIR}/zoneoracle/zo_engine.h")
install(CODE "set(ZO_LINK_SRC \"${CMAKE_SOURCE_DIR}\")
set(ZO_LINK_MAP \"${ZO_LINK_MAP}\")
include(\"${CMAKE_SOURCE_DIR}/cmake/install_links.cmake\")")

# packages: a .deb and a .tar.gz, in the build's packages/ directory
set(CPACK_PACKAGE_NAME zoneoracle)
set(CPACK_PACKAGE_VENDOR "the zoneoracle developers")
set(CPACK_PACKAGE_CONTACT "the zoneoracle developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION
  "A reference model of the zone rules of Magic: the Gathering (five eras) and Flesh and Blood, a suite of YAML rule cases citing the rules they check, and a CI gate that runs the suite against any engine speaking the zcp/1 protocol.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_RESOURCE_FILE_LICENSE ${CMAKE_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/packages)
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_FILE_NAME "zoneoracle-${PROJECT_VERSION}-${CMAKE_SYSTEM_NAME}")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# the shared libraries the binary links (libyaml, jansson, glibc, and
# mimalloc when the build linked it: ZO_MIMALLOC, CMakeLists.txt), written
# out rather than computed by dpkg-shlibdeps, so packaging needs no dpkg-dev
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6 (>= 2.34), libyaml-0-2, libjansson4 (>= 2.14)")
if(ZO_MIMALLOC_LINKED)
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libmimalloc2.0")
endif()
# gate --validate runs the schemas through Python's jsonschema; the headers
# and static library want the -dev packages to link
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3, python3-jsonschema")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libyaml-dev, libjansson-dev, pkg-config")
include(CPack)
