#include "io/sigv4.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <ctime>

#include "io/crypto_api.h"

namespace kerchunk::io::internal {
namespace {

// SHA-256 of the empty body: S3 signs the payload hash, and reads send none.
constexpr std::string_view kEmptyPayloadHash =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

std::string Hex(const unsigned char* bytes, size_t n) {
  std::string out;
  out.reserve(2 * n);
  for (size_t i = 0; i < n; ++i) fmt::format_to(std::back_inserter(out), "{:02x}", bytes[i]);
  return out;
}

std::string Hmac(std::string_view key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out, &n);
  return std::string(reinterpret_cast<const char*>(out), n);
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Header values are trimmed and inner runs of spaces become one.
std::string Trimmed(std::string_view v) {
  std::string out;
  bool space = false;
  for (char c : v) {
    if (c == ' ' || c == '\t') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

// "a=1&b=2" with parameters sorted by name, then value, each name and value encoded once.
std::string CanonicalQuery(std::string_view query) {
  std::vector<std::pair<std::string, std::string>> params;
  while (!query.empty()) {
    const size_t amp = query.find('&');
    std::string_view part = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (part.empty()) continue;
    const size_t eq = part.find('=');
    params.emplace_back(std::string(part.substr(0, eq)),
                        eq == std::string_view::npos ? "" : std::string(part.substr(eq + 1)));
  }
  std::sort(params.begin(), params.end());
  std::string out;
  for (const auto& [name, value] : params) {
    if (!out.empty()) out += '&';
    out += name;
    out += '=';
    out += value;
  }
  return out;
}

}  // namespace

std::string Sha256Hex(std::string_view bytes) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), digest);
  return Hex(digest, sizeof digest);
}

std::string UriEncode(std::string_view text, bool keep_slash) {
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' ||
        (keep_slash && c == '/')) {
      out += static_cast<char>(c);
    } else {
      fmt::format_to(std::back_inserter(out), "%{:02X}", c);
    }
  }
  return out;
}

std::string AmzDateNow() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[17];
  std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", &utc);
  return text;
}

std::vector<std::pair<std::string, std::string>> SignV4(const SigningRequest& request,
                                                        const S3Credentials& credentials,
                                                        std::string_view region,
                                                        std::string_view service,
                                                        std::string_view amz_date) {
  std::vector<std::pair<std::string, std::string>> added = {
      {"x-amz-content-sha256", std::string(kEmptyPayloadHash)},
      {"x-amz-date", std::string(amz_date)}};
  if (!credentials.session_token.empty()) {
    added.emplace_back("x-amz-security-token", credentials.session_token);
  }
  // Canonical headers: lowercase names, sorted, trimmed values.
  std::vector<std::pair<std::string, std::string>> signed_headers = {{"host", request.host}};
  for (const auto& [name, value] : request.headers) {
    signed_headers.emplace_back(Lower(name), Trimmed(value));
  }
  for (const auto& header : added) signed_headers.push_back(header);
  std::sort(signed_headers.begin(), signed_headers.end());
  std::string canonical_headers, names;
  for (const auto& [name, value] : signed_headers) {
    canonical_headers += name + ':' + value + '\n';
    if (!names.empty()) names += ';';
    names += name;
  }
  const std::string canonical_request = fmt::format(
      "{}\n{}\n{}\n{}\n{}\n{}", request.method, request.path.empty() ? "/" : request.path,
      CanonicalQuery(request.query), canonical_headers, names, kEmptyPayloadHash);
  const std::string_view day = amz_date.substr(0, 8);
  const std::string scope = fmt::format("{}/{}/{}/aws4_request", day, region, service);
  const std::string string_to_sign =
      fmt::format("AWS4-HMAC-SHA256\n{}\n{}\n{}", amz_date, scope, Sha256Hex(canonical_request));
  std::string key = Hmac("AWS4" + credentials.secret_access_key, day);
  key = Hmac(key, region);
  key = Hmac(key, service);
  key = Hmac(key, "aws4_request");
  const std::string signature = Hmac(key, string_to_sign);
  added.emplace_back(
      "authorization",
      fmt::format("AWS4-HMAC-SHA256 Credential={}/{},SignedHeaders={},Signature={}",
                  credentials.access_key_id, scope, names,
                  Hex(reinterpret_cast<const unsigned char*>(signature.data()), signature.size())));
  return added;
}

}  // namespace kerchunk::io::internal
