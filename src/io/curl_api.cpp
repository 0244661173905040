#include "io/curl_api_table.h"
#include "util/shared_library.h"

namespace kerchunk::io::curl {
namespace {

Status Bind(const kerchunk::internal::SharedLibrary& library, CurlApi& table) {
  KERCHUNK_CURL_FUNCTIONS(KERCHUNK_BIND_FUNCTION)
  return OkStatus();
}

const kerchunk::internal::LoadedTable<CurlApi>& Loaded() {
  return kerchunk::internal::LoadOnce<CurlApi, &Bind>("libcurl", KERCHUNK_CURL_LIBRARY_FILE);
}

}  // namespace

Status LoadLibrary() { return Loaded().status; }

const CurlApi& Api() { return kerchunk::internal::TableOrAbort(Loaded()); }

}  // namespace kerchunk::io::curl
