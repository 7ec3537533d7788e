# install_links.cmake: run by `cmake --install` (install.cmake) after the
# documents are installed. The Markdown files are written for the source
# tree, where ci/protocol/PROTOCOL.md links to ../../cases/README.md; the
# install puts them elsewhere (share/zoneoracle/protocol/PROTOCOL.md,
# share/zoneoracle/cases/README.md). Each installed .md is written again
# from its source with every relative link [text](target) pointed at where
# the install put the target, and, when the install has no copy of it (a
# source file such as oracle/src/engines/zcp_server.c), turned into its
# text alone. The source files stay as they are; oracle/tests/doc_links.py
# checks the result.
#
# Set by install.cmake: ZO_LINK_SRC (the source tree), ZO_LINK_MAP (pairs
# "SOURCE|INSTALLED": a file or a directory of the source tree, relative,
# "." for the root, and where it is installed, relative to the prefix or
# absolute).

set(root "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}")

# dest: where the install put the source-relative path rel ("" none: not
# installed); the longest matching entry of the map wins.
function(zo_installed rel out)
  set(best "")
  set(best_len -1)
  foreach(pair IN LISTS ZO_LINK_MAP)
    string(REPLACE "|" ";" parts "${pair}")
    list(GET parts 0 from)
    list(GET parts 1 to)
    if(IS_ABSOLUTE "${to}")
      set(to "$ENV{DESTDIR}${to}")
    else()
      set(to "${root}/${to}")
    endif()
    string(LENGTH "${from}/" len)
    string(SUBSTRING "${rel}" 0 ${len} head)
    if(rel STREQUAL from)
      set(cand "${to}")
    elseif(head STREQUAL "${from}/")
      string(SUBSTRING "${rel}" ${len} -1 rest)
      set(cand "${to}/${rest}")
    else()
      continue()
    endif()
    if(len GREATER best_len)
      set(best "${cand}")
      set(best_len ${len})
    endif()
  endforeach()
  if(best AND NOT EXISTS "${best}")
    set(best "")
  endif()
  set(${out} "${best}" PARENT_SCOPE)
endfunction()

# Write the installed copy at dest of the source document src.
function(zo_rewrite src dest)
  file(READ "${src}" text)
  get_filename_component(src_dir "${src}" DIRECTORY)
  get_filename_component(dest_dir "${dest}" DIRECTORY)
  string(REGEX MATCHALL "\\[[^][;]*\\]\\([^() ;]*\\)" found "${text}")
  list(REMOVE_DUPLICATES found)
  foreach(link IN LISTS found)
    string(REGEX MATCH "^\\[([^][;]*)\\]\\(([^() ;]*)\\)$" _ "${link}")
    set(label "${CMAKE_MATCH_1}")
    set(target "${CMAKE_MATCH_2}")
    if(target MATCHES "^[A-Za-z][A-Za-z0-9+.-]*:" OR target MATCHES "^#" OR target STREQUAL "")
      continue() # a URL, or a place in the same document
    endif()
    set(anchor "")
    if(target MATCHES "^([^#]*)(#.*)$")
      set(target "${CMAKE_MATCH_1}")
      set(anchor "${CMAKE_MATCH_2}")
    endif()
    get_filename_component(abs "${target}" ABSOLUTE BASE_DIR "${src_dir}")
    file(RELATIVE_PATH rel "${ZO_LINK_SRC}" "${abs}")
    if(rel STREQUAL "")
      set(rel ".")
    endif()
    zo_installed("${rel}" there)
    if(there)
      file(RELATIVE_PATH new "${dest_dir}" "${there}")
      if(new STREQUAL "")
        set(new ".")
      endif()
      string(REPLACE "${link}" "[${label}](${new}${anchor})" text "${text}")
    else()
      string(REPLACE "${link}" "${label}" text "${text}")
    endif()
  endforeach()
  file(WRITE "${dest}" "${text}")
endfunction()

foreach(pair IN LISTS ZO_LINK_MAP)
  string(REPLACE "|" ";" parts "${pair}")
  list(GET parts 0 from)
  set(src "${ZO_LINK_SRC}/${from}")
  if(IS_DIRECTORY "${src}")
    file(GLOB_RECURSE docs RELATIVE "${src}" "${src}/*.md")
    foreach(doc IN LISTS docs)
      zo_installed("${from}/${doc}" dest)
      if(dest)
        zo_rewrite("${src}/${doc}" "${dest}")
      endif()
    endforeach()
  elseif(from MATCHES "\\.md$")
    zo_installed("${from}" dest)
    if(dest)
      zo_rewrite("${src}" "${dest}")
    endif()
  endif()
endforeach()
