// How references name the files they point into, and the way back.
//
// `kerchunk scan` turns each local path into a URL (PathToUrl): by default the absolute path,
// or with --rewrite LOCAL=REMOTE / --url-prefix a remote location such as https://... or s3://...
// (scan a local mirror, publish references to the remote copy). `kerchunk combine` needs the
// opposite (UrlToLocalPath) to read referenced bytes such as coordinate values.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/util/status.h"

namespace kerchunk {

/// One "FROM=TO" rule: a leading FROM is replaced by TO.
struct PrefixRewrite {
  std::string from;
  std::string to;
  bool operator==(const PrefixRewrite&) const = default;
};

/// Splits "FROM=TO" at the first '='; FROM must not be empty, TO may be (relative URLs).
/// `option` names the option in errors.
Result<PrefixRewrite> ParseRewrite(std::string_view text, std::string_view option = "--rewrite");

/// Applies the rule with the longest FROM that matches `s` at a '/' boundary (FROM "/data/a"
/// matches "/data/a" and "/data/a/x.nc", not "/data/ab.nc"); the rest of `s` is joined to TO
/// with exactly one '/' (none when TO is empty, giving a relative path). Empty when no rule
/// matches.
std::optional<std::string> ApplyLongestPrefix(const std::vector<PrefixRewrite>& rules,
                                              std::string_view s);

/// Local path -> URL, for scan.
class PathToUrl {
 public:
  /// `rewrites` are LOCAL=REMOTE rules, LOCAL made absolute and normal; `url_prefix` (when not
  /// empty) is shorthand for one more rule "$PWD=url_prefix", so the URL is the prefix plus the
  /// path relative to the current directory. With neither, URLs are the absolute paths.
  static Result<PathToUrl> Make(const std::string& url_prefix,
                                const std::vector<PrefixRewrite>& rewrites);

  /// The URL of an absolute, lexically normal path (as ExpandInputs returns). When rules are
  /// given a path that none of them covers is InvalidArgument naming it: an index meant for a
  /// remote store must not silently refer to a local file.
  Result<std::string> UrlFor(const std::string& absolute_path) const;

  const std::vector<PrefixRewrite>& rules() const { return rules_; }

 private:
  std::vector<PrefixRewrite> rules_;
};

/// URL -> local path, for combine: REMOTE=LOCAL rules (LOCAL made absolute and normal) first,
/// then "file://" URLs become their path and plain paths stay as they are (relative ones are
/// relative to the current directory). Any other URL ("s3://", "https://") that no rule covers
/// is InvalidArgument asking for --rewrite.
class UrlToLocalPath {
 public:
  static Result<UrlToLocalPath> Make(const std::vector<PrefixRewrite>& rewrites);
  Result<std::string> PathFor(std::string_view url) const;

 private:
  std::vector<PrefixRewrite> rules_;
};

}  // namespace kerchunk
