# ci/lib.sh: shared by the ci/ scripts. Sourced, not run.
#
# zo_need_packages PKG...: install the Debian packages that are missing,
# saying which; as root with apt-get, otherwise it tells you what to run.

zo_need_packages() {
  local missing=()
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "ci: installing missing Debian packages: ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "ci: not root and no sudo: run 'apt-get install ${missing[*]}' as root" >&2
      return 2
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >/dev/null
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  echo "ci: installed ${missing[*]}"
}

# What building and testing zoneoracle needs on Debian.
ZO_BUILD_PACKAGES=(gcc libc6-dev make cmake pkg-config git libyaml-dev libjansson-dev libmimalloc-dev)
ZO_TEST_PACKAGES=(libcmocka-dev chromium python3 python3-jsonschema python3-yaml python3-pil nodejs)
ZO_FUZZ_PACKAGES=(clang libclang-rt-dev zip unzip afl++)
