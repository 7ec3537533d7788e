"""The wheel carries native code (libzoneoracle.so and the zoneoracle
command under zoneoracle/_native, put there by ci/package), loaded by
ctypes and exec'd, never imported as a CPython extension: so its tag is
py3-none-<platform>, not one per Python version."""
from setuptools import setup
from setuptools.dist import Distribution

try:
    from wheel.bdist_wheel import bdist_wheel

    class PlatformWheel(bdist_wheel):
        def finalize_options(self):
            super().finalize_options()
            self.root_is_pure = False

        def get_tag(self):
            _, _, plat = super().get_tag()
            return "py3", "none", plat

    cmdclass = {"bdist_wheel": PlatformWheel}
except ImportError:  # building an sdist needs no wheel
    cmdclass = {}


class BinaryDistribution(Distribution):
    def has_ext_modules(self):
        return True


setup(distclass=BinaryDistribution, cmdclass=cmdclass)
