// OpenSSL's libcrypto (SHA-256 and HMAC of S3 signatures), loaded when first used (see
// util/shared_library.h for why): the table of the functions the project calls. io/crypto_api.h
// redirects their C names to it.
#pragma once

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include "kerchunk/util/status.h"

#define KERCHUNK_CRYPTO_FUNCTIONS(X) \
  X(EVP_sha256)                      \
  X(HMAC)                            \
  X(SHA256)

namespace kerchunk::io::crypto {

struct CryptoApi {
#define KERCHUNK_CRYPTO_MEMBER(name) decltype(&::name) name = nullptr;
  KERCHUNK_CRYPTO_FUNCTIONS(KERCHUNK_CRYPTO_MEMBER)
#undef KERCHUNK_CRYPTO_MEMBER
};

/// Loads OpenSSL's libcrypto once (later calls return the first outcome). NotFound naming the
/// library when it is not installed. Every entry point that signs S3 requests calls it first.
Status LoadLibrary();

/// The table; loads OpenSSL's libcrypto if no entry point has. Aborts when it cannot be loaded.
const CryptoApi& Api();

}  // namespace kerchunk::io::crypto
