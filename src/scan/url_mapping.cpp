#include "kerchunk/scan/url_mapping.h"

#include <filesystem>
#include <optional>

namespace kerchunk {
namespace {

// "/mirror/data/" -> "/mirror/data"; the root "/" and "scheme://" stay as they are.
std::string TrimTrailingSlashes(std::string s) {
  while (s.size() > 1 && s.back() == '/' && !s.ends_with("://")) s.pop_back();
  return s;
}

std::string AbsoluteNormal(std::string_view path) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(std::filesystem::path(path), ec);
  if (ec) p = std::filesystem::path(path);
  return TrimTrailingSlashes(p.lexically_normal().string());
}

bool MatchesAtBoundary(std::string_view s, std::string_view from) {
  if (!s.starts_with(from)) return false;
  return s.size() == from.size() || from.ends_with('/') || s[from.size()] == '/';
}

std::string JoinOnce(std::string_view to, std::string_view rest) {
  while (rest.starts_with('/')) rest.remove_prefix(1);
  if (rest.empty()) return std::string(to);
  if (to.empty() || to.ends_with('/')) return std::string(to) + std::string(rest);
  return std::string(to) + "/" + std::string(rest);
}

bool HasScheme(std::string_view url) {
  size_t colon = url.find("://");
  if (colon == 0 || colon == url.npos) return false;
  return url.substr(0, colon).find('/') == url.npos;
}

}  // namespace

Result<PrefixRewrite> ParseRewrite(std::string_view text, std::string_view option) {
  size_t eq = text.find('=');
  if (eq == text.npos || eq == 0) {
    return InvalidArgumentError("{}: expected FROM=TO with a non-empty FROM, got \"{}\"", option,
                                text);
  }
  return PrefixRewrite{std::string(text.substr(0, eq)), std::string(text.substr(eq + 1))};
}

std::optional<std::string> ApplyLongestPrefix(const std::vector<PrefixRewrite>& rules,
                                              std::string_view s) {
  const PrefixRewrite* best = nullptr;
  for (const PrefixRewrite& rule : rules) {
    if (!MatchesAtBoundary(s, rule.from)) continue;
    if (!best || rule.from.size() > best->from.size()) best = &rule;
  }
  if (!best) return std::nullopt;
  return JoinOnce(best->to, s.substr(best->from.size()));
}

Result<PathToUrl> PathToUrl::Make(const std::string& url_prefix,
                                  const std::vector<PrefixRewrite>& rewrites) {
  PathToUrl mapper;
  for (const PrefixRewrite& rule : rewrites) {
    mapper.rules_.push_back({AbsoluteNormal(rule.from), rule.to});
  }
  if (!url_prefix.empty()) {
    std::error_code ec;
    std::filesystem::path cwd = std::filesystem::current_path(ec);
    if (ec) return IoError("--url-prefix: cannot find the current directory: {}", ec.message());
    mapper.rules_.push_back({AbsoluteNormal(cwd.string()), url_prefix});
  }
  return mapper;
}

Result<std::string> PathToUrl::UrlFor(const std::string& absolute_path) const {
  if (rules_.empty()) return absolute_path;
  std::optional<std::string> url = ApplyLongestPrefix(rules_, absolute_path);
  if (!url) {
    return InvalidArgumentError(
        "{}: not under any --rewrite folder or the current directory (--url-prefix), so it has "
        "no URL",
        absolute_path);
  }
  return *std::move(url);
}

Result<UrlToLocalPath> UrlToLocalPath::Make(const std::vector<PrefixRewrite>& rewrites) {
  UrlToLocalPath mapper;
  for (const PrefixRewrite& rule : rewrites) {
    mapper.rules_.push_back({TrimTrailingSlashes(rule.from), AbsoluteNormal(rule.to)});
  }
  return mapper;
}

Result<std::string> UrlToLocalPath::PathFor(std::string_view url) const {
  if (std::optional<std::string> path = ApplyLongestPrefix(rules_, url)) return *std::move(path);
  if (url.starts_with("file://")) return std::string(url.substr(7));
  if (HasScheme(url)) {
    return InvalidArgumentError(
        "cannot read {}: it is not a local file; give --rewrite {}=LOCAL_FOLDER", url,
        url.substr(0, url.rfind('/') + 1));
  }
  return std::string(url);
}

}  // namespace kerchunk
