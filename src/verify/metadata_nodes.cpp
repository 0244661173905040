// Groups and attributes: what zarr needs to open the hierarchy and xarray to open a dataset.
#include <fmt/format.h>

#include <set>

#include "kerchunk/json/json_value.h"
#include "verify/checks.h"
#include "verify/metadata_internal.h"

namespace kerchunk::verify::internal {
namespace {

using json::Value;

std::string DisplayKey(std::string_view node, std::string_view name) {
  return node.empty() ? std::string(name) : fmt::format("{}/{}", node, name);
}

// The JSON document of a metadata entry, or the reason it has none.
Result<Value> ParseDocument(const Entry& entry) {
  std::optional<std::string_view> text = MetadataText(entry);
  if (!text) return InvalidArgumentError("expected a JSON document, got a byte-range reference");
  return Value::Parse(*text);
}

void CheckZgroup(const Entry& entry, CaseLog& log) {
  Result<Value> doc = ParseDocument(entry);
  if (!doc.ok())
    return log.Fail(entry.key, fmt::format("{}: {}", entry.key, doc.status().message()));
  const Value* format = doc->is_object() ? doc->Find("zarr_format") : nullptr;
  if (!format || !format->is_number() || format->as_double() != 2) {
    log.Fail(entry.key, fmt::format("{}: expected an object with \"zarr_format\": 2, got {}",
                                    entry.key, doc->Dump()));
  }
}

void CheckZattrs(const Entry& entry, const Catalog& catalog, const std::set<std::string>& groups,
                 CaseLog& log) {
  const std::string node(NodePath(entry.key));
  Result<Value> doc = ParseDocument(entry);
  if (!doc.ok() || !doc->is_object()) {
    std::string why =
        doc.ok() ? "expected a JSON object, got " + doc->Dump() : doc.status().message();
    return log.Fail(entry.key, fmt::format("{}: {}", entry.key, why));
  }
  const ArrayInfo* array = catalog.Find(node);
  if (!array && !groups.contains(node)) {
    return log.Fail(entry.key,
                    fmt::format("{}: attributes of nothing: neither {} nor {} exists", entry.key,
                                DisplayKey(node, ".zarray"), DisplayKey(node, ".zgroup")));
  }
}

void CheckZmetadata(const Entry& entry, const ReferenceSet& refs, CaseLog& log) {
  Result<Value> doc = ParseDocument(entry);
  const Value* metadata = doc.ok() && doc->is_object() ? doc->Find("metadata") : nullptr;
  if (!metadata || !metadata->is_object()) {
    return log.Fail(entry.key,
                    fmt::format("{}: expected an object with a \"metadata\" object", entry.key));
  }
  // zarr opened with consolidated metadata reads only this document, so it must agree with the
  // individual keys.
  for (const auto& [key, value] : metadata->as_object()) {
    const Entry* own = refs.FindEntry(key);
    Result<Value> parsed = own ? ParseDocument(*own) : Result<Value>(NotFoundError("missing"));
    if (!parsed.ok()) {
      log.Fail(key, fmt::format("{}: lists {}, which the references do not hold as a document",
                                entry.key, key));
    } else if (!(*parsed == value)) {
      log.Fail(key, fmt::format("{}: its copy of {} differs from the key itself", entry.key, key));
    }
  }
}

// Every group above an array or group must have a .zgroup, or zarr cannot reach it.
void CheckParentGroups(const Catalog& catalog, const std::set<std::string>& groups,
                       NodeLogs& logs) {
  std::set<std::string> reported;
  auto check_parents = [&](const std::string& node) {
    if (node.empty()) return;
    std::string_view parent = node;
    while (true) {
      const size_t slash = parent.rfind('/');
      parent = slash == std::string_view::npos ? std::string_view() : parent.substr(0, slash);
      const std::string p(parent);
      if (!groups.contains(p) && reported.insert(p).second) {
        const std::string key = DisplayKey(p, ".zgroup");
        logs[p].Fail(key,
                     fmt::format("{} is missing, so zarr cannot open {} inside it", key, node));
      }
      if (parent.empty()) return;
    }
  };
  for (const ArrayInfo& a : catalog.arrays) check_parents(a.path);
  for (const std::string& g : groups) check_parents(g);
}

}  // namespace

CaseLog& NodeLogs::operator[](std::string_view path) {
  auto [it, inserted] = index_.try_emplace(std::string(path), logs_.size());
  if (inserted) logs_.push_back(report_.NewCase(Check::kMetadata, std::string(path)));
  return logs_[it->second];
}

void NodeLogs::AddTo(Report& report) {
  for (CaseLog& log : logs_) report.Add(std::move(log));
  logs_.clear();
  index_.clear();
}

void CheckNodes(const ReferenceSet& refs, const Catalog& catalog, NodeLogs& logs) {
  std::set<std::string> groups;
  for (const Entry& e : refs.entries) {
    if (KindOfKey(e.key) == MetadataKind::kZgroup) groups.insert(std::string(NodePath(e.key)));
  }
  for (const Entry& e : refs.entries) {
    const MetadataKind kind = KindOfKey(e.key);
    if (kind == MetadataKind::kNone || kind == MetadataKind::kZarray) continue;
    CaseLog& log = logs[NodePath(e.key)];
    log.Examined();
    if (kind == MetadataKind::kZgroup) CheckZgroup(e, log);
    if (kind == MetadataKind::kZattrs) CheckZattrs(e, catalog, groups, log);
    if (kind == MetadataKind::kZmetadata) CheckZmetadata(e, refs, log);
  }
  CheckParentGroups(catalog, groups, logs);
}

Catalog CheckMetadata(const ReferenceSet& refs, Report& report) {
  NodeLogs logs(report);
  std::unordered_map<std::string_view, const Entry*> zarrays;
  std::vector<std::string_view> order;
  for (const Entry& e : refs.entries) {
    if (auto path = ZarrayKeyArrayPath(e.key)) {
      if (zarrays.emplace(*path, &e).second) order.push_back(*path);
    }
  }
  Catalog catalog;
  auto add = [&](std::string_view path, const ArrayRefs* columns) {
    auto it = zarrays.find(path);
    if (it == zarrays.end() || catalog.by_path.contains(std::string(path))) return;
    catalog.by_path.emplace(std::string(path), catalog.arrays.size());
    catalog.arrays.push_back(AnalyzeZarray(std::string(path), *it->second, columns, logs[path]));
  };
  for (const ArrayRefs& a : refs.arrays) add(a.path(), &a);
  for (std::string_view path : order) add(path, nullptr);
  CheckNodes(refs, catalog, logs);
  logs.AddTo(report);
  report.MarkRun(Check::kMetadata);
  return catalog;
}

}  // namespace kerchunk::verify::internal
