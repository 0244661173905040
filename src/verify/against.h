// --against: the semantic difference of two reference sets.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/refs/reference_set.h"
#include "kerchunk/verify/report.h"
#include "kerchunk/verify/verify.h"
#include "verify/checks.h"
#include "verify/files.h"

// The values --against compares: one view over EntryValue and ChunkRef, and the comparison
// rules (JSON meaning for metadata, canonical files for URLs, bytes for inline data).
namespace kerchunk::verify::internal {

/// A value of either model, with its URL already canonical.
struct DiffValue {
  enum class Kind { kText, kBytes, kJson, kRange, kWholeFile };
  Kind kind = Kind::kText;
  std::string_view data;   ///< kText, kBytes (inline), kJson
  uint32_t url = 0;        ///< canonical URL id (see CanonicalUrls); kRange, kWholeFile
  uint32_t local_url = 0;  ///< the URL id in its own set, for reading bytes
  uint64_t offset = 0;
  uint64_t length = 0;
};

DiffValue FromEntry(const EntryValue& v, const std::vector<uint32_t>& canonical);
DiffValue FromChunk(const ChunkRef& r, const std::vector<uint32_t>& canonical);

/// URL ids of two sets mapped into one table of canonical names: the local path (made
/// absolute and normal) when the URL has one after the rewrite rules, else the URL itself.
struct CanonicalUrls {
  std::vector<std::string> names;
  std::vector<uint32_t> a;  ///< set A's id -> canonical id
  std::vector<uint32_t> b;
};
CanonicalUrls Canonicalize(const ResolvedFiles& a, const UrlTable& a_urls, const ResolvedFiles& b,
                           const UrlTable& b_urls);

/// Both sides of a comparison with what is needed to read bytes.
struct DiffSide {
  const ReferenceSet* refs;
  FileReader* reader;
};

enum class Verdict { kEqual, kEqualBytes, kMetadataDiffers, kValueDiffers };

/// Compares two values of `key`. Metadata keys are parsed as JSON (kMetadataDiffers with
/// `detail` naming the first differing member); an inline value and a range are equal when the
/// range's bytes (read from the file) are the inline bytes (kEqualBytes).
Verdict CompareValues(std::string_view key, const DiffValue& x, const DiffSide& xs,
                      const DiffValue& y, const DiffSide& ys, std::string& detail);

/// "[url, offset, length]", "[url]", "inline (N bytes)", or the text, shortened, for messages.
std::string Describe(const DiffValue& v, const CanonicalUrls& urls);

}  // namespace kerchunk::verify::internal

// --against: the semantic difference of two reference sets (plain or packed, any producer).
// Keys are matched by name whatever the model holds them as (a chunk column or a plain entry);
// metadata documents are compared as parsed JSON; URLs are compared as the files they name
// (after the --rewrite rules), and an inline chunk equals a byte range holding the same bytes.
namespace kerchunk::verify::internal {

/// Loads options.against and adds Check::kAgainst cases (one per array or metadata node) and
/// the DiffTotals to the report. Fails only when the other set cannot be loaded.
Status CompareWithOther(const ReferenceSet& refs, const VerifyOptions& options,
                        const CheckContext& context, Report& report);

}  // namespace kerchunk::verify::internal
