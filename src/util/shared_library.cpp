#include "util/shared_library.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace kerchunk::internal {

Result<SharedLibrary> SharedLibrary::Open(std::string_view what, const char* file) {
  // Already there (RTLD_NOLOAD only looks) when the program is linked with it or another part
  // of the process loaded it.
  void* loaded = dlopen(file, RTLD_NOW | RTLD_NOLOAD);
  if (loaded != nullptr) dlclose(loaded);
  // RTLD_LOCAL: the library's symbols serve only this table, never another library's lookups.
  void* handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* reason = dlerror();
    return NotFoundError("{} ({}) cannot be loaded: {}", what, file,
                         reason != nullptr ? reason : "no reason given");
  }
  return SharedLibrary(std::string(what), handle, loaded != nullptr);
}

Result<void*> SharedLibrary::Address(const char* symbol, bool variable) const {
  if (variable && already_loaded_) {
    // The definition every part of the program uses, the program's copy if it has one.
    if (void* address = dlsym(RTLD_DEFAULT, symbol)) return address;
  }
  dlerror();  // dlsym reports failure through dlerror: clear what an earlier call left
  void* address = dlsym(handle_, symbol);
  if (address == nullptr && dlerror() != nullptr) {
    return NotFoundError(
        "{} has no symbol {}: a release older than the one this program was "
        "built with",
        what_, symbol);
  }
  return address;
}

void AbortWithoutLibrary(const Status& status) {
  std::fprintf(stderr, "kerchunk: %s\n", status.message().c_str());
  std::abort();
}

}  // namespace kerchunk::internal
