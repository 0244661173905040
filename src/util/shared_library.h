// C libraries that only some runs need (libhdf5, netCDF-C, libcurl, OpenSSL's libcrypto) are
// opened the first time they are used, not when the program starts. Linked the usual way, the
// dynamic loader mapped and relocated them and the ~45 libraries they depend on before main():
// 12 of the 15 ms every `kerchunk` run took to start, also for a local scan that uses none of them
// (the native HDF5 reader needs no libhdf5; only its fallback, verify's oracles and remote files
// do).
//
// Each library has a table of the functions and variables the project uses, filled from the
// library with dlsym; its header (h5_api.h, netcdf_api.h, curl_api.h, crypto_api.h) redirects the
// C names to the table, so that calling code reads as ordinary C API calls.
#pragma once

#include <string>
#include <string_view>

#include "kerchunk/util/status.h"

namespace kerchunk::internal {

/// One shared library opened with dlopen. It is never closed: the functions it gave out stay in
/// use until the program exits.
class SharedLibrary {
 public:
  /// Opens the library `file` (its SONAME, e.g. "libhdf5_serial.so.103", as the build found it).
  /// `what` names it in messages ("libhdf5"). NotFound when it cannot be loaded, with dlerror's
  /// reason.
  static Result<SharedLibrary> Open(std::string_view what, const char* file);

  /// Sets `slot` to the library's function `symbol`. NotFound when the library does not define
  /// it (a release older than the build's headers).
  template <typename F>
  Status BindFunction(const char* symbol, F*& slot) const {
    KERCHUNK_ASSIGN_OR_RETURN(void* address, Address(symbol, /*variable=*/false));
    slot = reinterpret_cast<F*>(address);
    return OkStatus();
  }

  /// Sets `slot` to the address of the library's variable `symbol` (e.g. libhdf5's type ids).
  template <typename T>
  Status BindVariable(const char* symbol, T*& slot) const {
    KERCHUNK_ASSIGN_OR_RETURN(void* address, Address(symbol, /*variable=*/true));
    slot = static_cast<T*>(address);
    return OkStatus();
  }

 private:
  SharedLibrary(std::string what, void* handle, bool already_loaded)
      : what_(std::move(what)), handle_(handle), already_loaded_(already_loaded) {}
  Result<void*> Address(const char* symbol, bool variable) const;

  std::string what_;
  void* handle_;
  // Whether the library was in the process before this opened it: the program is linked with
  // it (the tests are, for their oracles), or another part loaded it (h5py in a Python process).
  // A variable the program uses may then live in the program itself (a copy relocation, which
  // the library's own code then reads and writes), not where dlsym on the library points; a
  // library loaded privately by someone else is not in the global scope and keeps its own.
  bool already_loaded_;
};

/// A library's table, filled once by the first caller, or the reason it could not be.
template <typename Table>
struct LoadedTable {
  Status status;
  Table table;
};

/// The table of `file` filled by `Bind`: loaded by the first call, once, whichever thread comes
/// first; later calls return the first outcome.
template <typename Table, Status (*Bind)(const SharedLibrary&, Table&)>
const LoadedTable<Table>& LoadOnce(std::string_view what, const char* file) {
  static const LoadedTable<Table> loaded = [&] {
    LoadedTable<Table> result;
    Result<SharedLibrary> library = SharedLibrary::Open(what, file);
    result.status = library.ok() ? Bind(*library, result.table) : library.status();
    return result;
  }();
  return loaded;
}

/// For a table used without its entry point's check (each entry point returns the load error
/// as a Status first): prints the error and aborts, since the calling C code cannot go on.
[[noreturn]] void AbortWithoutLibrary(const Status& status);

template <typename Table>
const Table& TableOrAbort(const LoadedTable<Table>& loaded) {
  if (!loaded.status.ok()) AbortWithoutLibrary(loaded.status);
  return loaded.table;
}

}  // namespace kerchunk::internal

// For a table's Bind function, over its X-macro lists of names: `library` is the SharedLibrary,
// `table` the table being filled. (The file defining Bind includes only the table's header: with
// the redirecting one, `table.name` would expand.)
#define KERCHUNK_BIND_FUNCTION(name) \
  KERCHUNK_RETURN_IF_ERROR(library.BindFunction(#name, table.name));
#define KERCHUNK_BIND_VARIABLE(name) \
  KERCHUNK_RETURN_IF_ERROR(library.BindVariable(#name, table.name));
