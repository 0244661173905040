#include "verify/load.h"

#include <fcntl.h>
#include <unistd.h>

#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/pack/packed_index.h"

namespace kerchunk::verify::internal {
namespace {

std::string_view SkipSpace(std::string_view s) {
  while (!s.empty() && (s[0] == ' ' || s[0] == '\n' || s[0] == '\r' || s[0] == '\t')) {
    s.remove_prefix(1);
  }
  return s;
}

bool Consume(std::string_view& s, std::string_view token) {
  s = SkipSpace(s);
  if (!s.starts_with(token)) return false;
  s.remove_prefix(token.size());
  return true;
}

// The first bytes of a file (an empty string for an unreadable one: the loader reports that).
std::string ReadHead(const std::string& path) {
  std::string head(256, '\0');
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  const ssize_t n = ::read(fd, head.data(), head.size());
  ::close(fd);
  head.resize(n > 0 ? static_cast<size_t>(n) : 0);
  return head;
}

}  // namespace

bool LooksPacked(std::string_view head) {
  return Consume(head, "{") && Consume(head, "\"format\"") && Consume(head, ":") &&
         Consume(head, "\"kerchunk-packed\"");
}

bool IsPackedFile(const std::string& path) { return LooksPacked(ReadHead(path)); }

bool IsUnreadable(const Status& status) {
  return status.code() == StatusCode::kNotFound || status.code() == StatusCode::kIoError;
}

Result<LoadedReferences> LoadReferences(const std::string& path) {
  LoadedReferences out;
  if (!IsPackedFile(path)) {
    KERCHUNK_ASSIGN_OR_RETURN(out.refs, ReadKerchunkFile(path));
    out.format = "Kerchunk JSON";
    return out;
  }
  Result<pack::PackedIndex> index = pack::PackedIndex::Open(path);
  if (!index.ok()) return std::move(index).status().Annotate("packed file " + path);
  Result<ReferenceSet> refs = index->UnpackAll();
  if (!refs.ok()) return std::move(refs).status().Annotate("packed file " + path);
  out.refs = *std::move(refs);
  out.format = "packed, checksum " + index->checksum().ToString();
  return out;
}

}  // namespace kerchunk::verify::internal
