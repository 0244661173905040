// SharedLibrary, the loader behind the tables of libhdf5, netCDF-C, libcurl and libcrypto: what
// it binds is what the program would have called, and what it cannot load or find is a NotFound
// naming it.
#include "util/shared_library.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

extern "C" char** environ;

namespace kerchunk::internal {
namespace {

using ::testing::HasSubstr;

TEST(SharedLibraryTest, ALibraryThatCannotBeLoadedIsNotFoundNamingIt) {
  Result<SharedLibrary> library = SharedLibrary::Open("libexample", "libkerchunk-absent.so.0");
  ASSERT_FALSE(library.ok());
  EXPECT_EQ(library.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(library.status().message(), HasSubstr("libexample (libkerchunk-absent.so.0)"));
}

TEST(SharedLibraryTest, ABoundFunctionIsTheLibrarys) {
  Result<SharedLibrary> libm = SharedLibrary::Open("libm", "libm.so.6");
  ASSERT_TRUE(libm.ok()) << libm.status().message();
  double (*cosine)(double) = nullptr;
  ASSERT_TRUE(libm->BindFunction("cos", cosine).ok());
  ASSERT_NE(cosine, nullptr);
  EXPECT_EQ(cosine(0.5), std::cos(0.5));
}

TEST(SharedLibraryTest, AMissingSymbolIsNotFoundNamingIt) {
  Result<SharedLibrary> libm = SharedLibrary::Open("libm", "libm.so.6");
  ASSERT_TRUE(libm.ok()) << libm.status().message();
  void (*absent)() = nullptr;
  Status status = libm->BindFunction("kerchunk_no_such_function", absent);
  EXPECT_EQ(status.code(), StatusCode::kNotFound);
  EXPECT_THAT(status.message(), HasSubstr("libm has no symbol kerchunk_no_such_function"));
  EXPECT_EQ(absent, nullptr);
}

// This program is linked with libc and uses its variable `environ`: the bound address must be
// the one the program and libc both read and write (the program's own copy, if the linker made
// one), not wherever libc's definition was before the copy.
TEST(SharedLibraryTest, AVariableOfALinkedLibraryIsTheOneInUse) {
  Result<SharedLibrary> libc = SharedLibrary::Open("libc", "libc.so.6");
  ASSERT_TRUE(libc.ok()) << libc.status().message();
  char** const* bound = nullptr;
  ASSERT_TRUE(libc->BindVariable("environ", bound).ok());
  EXPECT_EQ(bound, &environ);
  ASSERT_EQ(setenv("KERCHUNK_SHARED_LIBRARY_TEST", "1", 1), 0);  // may move the array
  EXPECT_EQ(*bound, environ);
}

}  // namespace
}  // namespace kerchunk::internal
