// Missing referenced files, regrouped for people. The files check reports one problem per array
// and file (so that JUnit and JSON keep their per-array cases); an index whose 17 files moved
// would print 41 such lines in the text report. Here they become one line per file, and a
// folder they all share becomes a suggested --rewrite.
#include <fmt/format.h>

#include <charconv>
#include <map>
#include <optional>

#include "verify/report_common.h"

namespace kerchunk::verify::internal {
namespace {

constexpr std::string_view kDoesNotExist = " does not exist (";

struct ParsedMissing {
  std::string file;
  uint64_t references = 0;
};

// "<key>: <file> does not exist (<n> reference[s] into it)", as file_check.cpp writes it.
std::optional<ParsedMissing> ParseMissing(const Finding& finding) {
  std::string_view m = finding.message;
  const std::string head = finding.key + ": ";
  if (!m.starts_with(head) || !m.ends_with(" into it)")) return std::nullopt;
  m.remove_prefix(head.size());
  const size_t at = m.rfind(kDoesNotExist);
  if (at == std::string_view::npos) return std::nullopt;
  ParsedMissing parsed{std::string(m.substr(0, at)), 0};
  std::string_view count = m.substr(at + kDoesNotExist.size());
  auto [end, error] = std::from_chars(count.data(), count.data() + count.size(), parsed.references);
  if (error != std::errc()) return std::nullopt;
  return parsed;
}

std::string UrlOf(const std::string& name) {
  const size_t local = name.find(" (local ");
  return local == std::string::npos ? name : name.substr(0, local);
}

// The longest folder ("/a/b/", "s3://bucket/x/") that every URL starts with; "" for none or "/".
std::string CommonFolder(const std::vector<MissingFiles::File>& files) {
  if (files.empty()) return "";
  std::string prefix = files.front().url;
  for (const auto& f : files) {
    size_t n = 0;
    while (n < prefix.size() && n < f.url.size() && prefix[n] == f.url[n]) ++n;
    prefix.resize(n);
  }
  const size_t slash = prefix.rfind('/');
  prefix = slash == std::string::npos ? "" : prefix.substr(0, slash + 1);
  return prefix == "/" || prefix.ends_with("://") ? "" : prefix;
}

}  // namespace

bool MissingFiles::Covers(const Finding& finding) const {
  return findings > 0 && ParseMissing(finding).has_value();
}

MissingFiles CollectMissingFiles(const Report& report) {
  MissingFiles out;
  std::map<std::string, size_t> index;  // file name -> position in out.files
  for (const CaseLog* log : report.Cases()) {
    if (log->check() != Check::kFiles) continue;
    for (const Finding& finding : log->findings()) {
      std::optional<ParsedMissing> parsed = ParseMissing(finding);
      if (!parsed) continue;
      auto [it, inserted] = index.emplace(parsed->file, out.files.size());
      if (inserted) out.files.push_back({parsed->file, UrlOf(parsed->file), 0, 0});
      ++out.files[it->second].arrays;
      out.files[it->second].references += parsed->references;
      ++out.findings;
    }
  }
  out.common_folder = CommonFolder(out.files);
  return out;
}

void WriteMissingFiles(const MissingFiles& missing, size_t max, std::ostream& out) {
  if (missing.findings == 0) return;
  uint64_t references = 0;
  for (const auto& f : missing.files) references += f.references;
  out << fmt::format("Missing files ({} {}, {} into them; first {}):\n",
                     Plural(missing.files.size(), "file"),
                     missing.files.size() == 1 ? "does not exist" : "do not exist",
                     Plural(references, "reference"), std::min(max, missing.files.size()));
  for (size_t i = 0; i < missing.files.size() && i < max; ++i) {
    const auto& f = missing.files[i];
    out << fmt::format("  {}: {}, {}\n", f.name, Plural(f.arrays, "array"),
                       Plural(f.references, "reference"));
  }
  if (!missing.common_folder.empty()) {
    const std::string folder = missing.common_folder.substr(0, missing.common_folder.size() - 1);
    out << fmt::format(
        "  hint: all are under {}; if they moved, verify with --rewrite {}=NEW_FOLDER\n",
        missing.common_folder, folder);
  }
}

}  // namespace kerchunk::verify::internal
