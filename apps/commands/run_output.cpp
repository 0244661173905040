#include "run_output.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "kerchunk/json/json_value.h"
#include "kerchunk/pack/pack.h"
#include "kerchunk/util/file_io.h"

namespace kerchunk::internal {
namespace {

constexpr std::string_view kPackedSuffix = ".packed.json";

size_t Digits(uint64_t v) { return fmt::formatted_size("{}", v); }

// Longest chunk key suffix of an array ("12.0.3"): the digits of the largest index per
// dimension plus separators.
size_t MaxKeySuffix(const ChunkGrid& grid) {
  size_t n = grid.rank() == 0 ? 1 : grid.rank() - 1;
  for (uint64_t count : grid.counts()) n += Digits(count == 0 ? 0 : count - 1);
  return n;
}

// An upper bound of the size SerializeKerchunkJson writes. Reserving it before serializing
// means the text never grows by reallocation, which briefly holds the old and the new buffer
// (about 2.5 times the JSON size at the peak, ~165 MB for a million references); capacity that
// is reserved but never written costs address space, not resident memory.
size_t JsonSizeBound(const ReferenceSet& refs, const WriteOptions& options) {
  size_t url_json = 0, total = 1024;
  for (const std::string& url : refs.urls.urls()) {
    std::string quoted;
    json::AppendString(quoted, url);
    total += quoted.size() + 24;  // the templates object
    url_json = std::max(url_json, options.templates ? size_t{24} : quoted.size());
  }
  const size_t range = url_json + 2 * 20 + 8;  // [url,offset,length] and separators
  for (const Entry& e : refs.entries) {
    total += 6 * (e.key.size() + e.value.data.size()) + range + 8;  // \uXXXX escapes at worst
  }
  for (const ArrayRefs& a : refs.arrays) {
    const size_t key = 6 * a.path().size() + MaxKeySuffix(a.grid()) + 8;
    total += a.size() * (key + range) + 6 * a.inline_data().size();
  }
  return total;
}

}  // namespace

Status CheckOutputPath(const std::string& path) {
  if (path.empty()) return InvalidArgumentError("no output file: give -o FILE (or -o - )");
  if (path == "-") return OkStatus();
  std::filesystem::path folder = std::filesystem::path(path).parent_path();
  if (folder.empty()) folder = ".";
  std::error_code ec;
  if (!std::filesystem::is_directory(folder, ec)) {
    return NotFoundError("{}: cannot write the output: folder {} does not exist", path,
                         folder.string());
  }
  if (std::filesystem::is_directory(path, ec)) {
    return InvalidArgumentError("{}: the output is a folder; give a file name", path);
  }
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    return IoError("{}: cannot write the output: folder {} is not writable", path, folder.string());
  }
  return OkStatus();
}

bool WantsPacked(const std::string& path, bool packed) {
  return packed || path.ends_with(kPackedSuffix);
}

Result<uint64_t> WriteReferences(const std::string& path, const ReferenceSet& refs,
                                 const WriteOptions& options, std::ostream& stdout_stream,
                                 const std::vector<SourceFileRecord>& sources, bool packed) {
  std::string text;
  if (WantsPacked(path, packed)) {
    // Packed from the columns in memory: the output plus small tables, no JSON text of every
    // reference (which would be ~100 bytes a reference on top of the model's ~28).
    KERCHUNK_ASSIGN_OR_RETURN(pack::PackedText p, pack::Pack(refs, {.binary = true}));
    AppendSourceRecord(sources, p.text);
    text = pack::CompactPackedFile(p);
  } else {
    // About 100 bytes per recorded file: the member inserted at the start needs no
    // reallocation.
    text.reserve(JsonSizeBound(refs, options) + 160 * (sources.size() + 1));
    SerializeKerchunkJson(refs, options, text);
    // First in the document, so that verify reads it without parsing the references.
    PrependSourceRecord(sources, text);
  }
  if (path == "-") {
    stdout_stream.write(text.data(), static_cast<std::streamsize>(text.size()));
    stdout_stream.flush();
    if (!stdout_stream) return IoError("cannot write the references to standard output");
    return text.size();
  }
  KERCHUNK_RETURN_IF_ERROR(WriteFileAtomically(path, text));
  return text.size();
}

std::string ConcatDimsText(const CombineOptions& options) {
  std::string out;
  for (const std::string& d : options.outer_dims) out += d + ",";
  return out + (options.concat_dim.empty() ? "time" : options.concat_dim);
}

void GroupedWarnings::Add(const std::string& path, const std::string& message) {
  auto [it, inserted] = index_.emplace(message, groups_.size());
  if (inserted) groups_.push_back({message, path, 0});
  ++groups_[it->second].files;
}

std::vector<std::string> GroupedWarnings::Lines() const {
  std::vector<std::string> lines;
  for (const Group& g : groups_) {
    std::string line = g.first_path + ": " + g.message;
    if (g.files > 1) {
      line += fmt::format(" (and {} more file{})", g.files - 1, g.files > 2 ? "s" : "");
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

void Warn(const CommandStreams& streams, const std::string& command, bool quiet,
          const std::string& message) {
  if (quiet) return;
  streams.err << fmt::format("kerchunk {}: warning: {}\n", command, message);
}

void EmitSummary(const RunSummary& summary, SummaryFormat format, bool quiet,
                 const CommandStreams& streams) {
  if (format == SummaryFormat::kJson) {
    std::ostream& target = summary.output == "-" ? streams.err : streams.out;
    target << FormatSummaryJson(summary);
    target.flush();
    return;
  }
  if (!quiet) streams.err << FormatSummaryText(summary);
}

Status NameFile(Status status, const std::string& path) {
  if (status.ok() || status.message().find(path) != std::string::npos) return status;
  return std::move(status).Annotate(path);
}

std::vector<SourceFileRecord> SourcesOf(const ReferenceSet& refs,
                                        const std::vector<SourceFileRecord>& known) {
  std::unordered_map<std::string_view, const SourceFileRecord*> by_url;
  for (const SourceFileRecord& r : known) by_url.emplace(r.url, &r);
  std::vector<SourceFileRecord> out;
  for (const std::string& url : refs.urls.urls()) {
    auto it = by_url.find(url);
    if (it != by_url.end()) out.push_back(*it->second);
  }
  return out;
}

Status FinishRun(const ReferenceSet& refs, const std::string& output, const WriteOptions& write,
                 bool packed, std::chrono::steady_clock::time_point start, SummaryFormat format,
                 bool quiet, const CommandStreams& streams, RunSummary& summary,
                 const std::vector<SourceFileRecord>& sources) {
  CountReferences(refs, summary);
  summary.packed = WantsPacked(output, packed);
  KERCHUNK_ASSIGN_OR_RETURN(summary.output_bytes,
                            WriteReferences(output, refs, write, streams.out, sources, packed));
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  summary.peak_rss_bytes = PeakRssBytes();
  EmitSummary(summary, format, quiet, streams);
  return OkStatus();
}

}  // namespace kerchunk::internal
