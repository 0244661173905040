// Telling a packed file from plain Kerchunk JSON (and anything else) by its first bytes, so
// that commands can say "already packed" instead of a parse error deep inside the document.
#include <fcntl.h>
#include <unistd.h>

#include "kerchunk/pack/packed_index.h"
#include "packed_container.h"

namespace kerchunk::pack {
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
  if (internal::IsContainer(head)) return true;
  return Consume(head, "{") && Consume(head, "\"format\"") && Consume(head, ":") &&
         Consume(head, "\"kerchunk-packed\"");
}

bool IsPackedFile(const std::string& path) { return LooksPacked(ReadHead(path)); }

}  // namespace kerchunk::pack
