#include "io/crypto_api_table.h"
#include "util/shared_library.h"

namespace kerchunk::io::crypto {
namespace {

Status Bind(const kerchunk::internal::SharedLibrary& library, CryptoApi& table) {
  KERCHUNK_CRYPTO_FUNCTIONS(KERCHUNK_BIND_FUNCTION)
  return OkStatus();
}

const kerchunk::internal::LoadedTable<CryptoApi>& Loaded() {
  return kerchunk::internal::LoadOnce<CryptoApi, &Bind>("OpenSSL's libcrypto",
                                                        KERCHUNK_CRYPTO_LIBRARY_FILE);
}

}  // namespace

Status LoadLibrary() { return Loaded().status; }

const CryptoApi& Api() { return kerchunk::internal::TableOrAbort(Loaded()); }

}  // namespace kerchunk::io::crypto
