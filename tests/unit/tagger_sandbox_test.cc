// Algorithm 2's sandbox, piece by piece: the order-maintenance list it keeps its topological
// order in, the landmark bits that answer most cycle checks, and the incremental order on
// graphs large enough that the landmarks are chosen and labels run out (against a transitive
// closure kept by brute force).
#include <gtest/gtest.h>

#include <algorithm>
#include <bitset>
#include <list>
#include <random>
#include <vector>

#include "tagger/dynamic_topological_order.h"
#include "tagger/landmark_reachability.h"
#include "tagger/order_maintenance_list.h"

namespace fcswitch::tagger {
namespace {

// The list against std::list: after every move, the same sequence, and before() and the
// labels agree with it.
void expect_same_order(const OrderMaintenanceList& list, const std::list<int>& model) {
  const std::vector<int> expected(model.begin(), model.end());
  ASSERT_EQ(list.in_order(), expected);
  for (size_t i = 1; i < expected.size(); ++i) {
    ASSERT_LT(list.label(expected[i - 1]), list.label(expected[i])) << "at " << i;
    ASSERT_TRUE(list.before(expected[i - 1], expected[i]));
    ASSERT_FALSE(list.before(expected[i], expected[i - 1]));
  }
}

TEST(OrderMaintenanceList, AppendsInOrder) {
  OrderMaintenanceList list;
  std::list<int> model;
  for (int i = 0; i < 1000; ++i) {
    EXPECT_EQ(list.push_back(), i);
    model.push_back(i);
  }
  EXPECT_EQ(list.size(), 1000);
  expect_same_order(list, model);
}

// 20 000 elements moved one at a time in front of the same one: each halves the gap a
// midpoint label would take, so labels run out after 62 moves unless ranges are relabelled.
TEST(OrderMaintenanceList, RelabelsWhenAGapRunsOut) {
  OrderMaintenanceList list;
  std::list<int> model;
  std::vector<std::list<int>::iterator> where;
  const int n = 20000;
  for (int i = 0; i < n; ++i) {
    list.push_back();
    where.push_back(model.insert(model.end(), i));
  }
  const int anchor = n / 2;
  for (int x = n - 1; x > anchor; --x) {
    const int run[] = {x};
    list.move_before(anchor, run);
    model.erase(where[x]);
    where[x] = model.insert(where[anchor], x);
  }
  // Runs of several, and at both ends of the list.
  const int front[] = {3, 1, 2};
  list.move_before(model.front(), front);
  const int back[] = {5, 4};
  list.move_after(model.back(), back);
  for (int x : {3, 1, 2, 5, 4}) model.erase(where[x]);
  model.insert(model.begin(), {3, 1, 2});
  model.insert(model.end(), {5, 4});
  expect_same_order(list, model);
}

TEST(OrderMaintenanceList, RandomRunsMovedAfterAndBefore) {
  std::mt19937 rng(11);
  OrderMaintenanceList list;
  std::list<int> model;
  const int n = 300;
  for (int i = 0; i < n; ++i) {
    list.push_back();
    model.push_back(i);
  }
  for (int round = 0; round < 3000; ++round) {
    const int anchor = static_cast<int>(rng() % n);
    std::vector<int> run;
    for (int k = 0, size = 1 + static_cast<int>(rng() % 6); k < size; ++k) {
      const int x = static_cast<int>(rng() % n);
      if (x != anchor && std::find(run.begin(), run.end(), x) == run.end()) run.push_back(x);
    }
    for (int x : run) model.remove(x);
    auto at = std::find(model.begin(), model.end(), anchor);
    if (round % 2) {
      list.move_after(anchor, run);
      ++at;
    } else {
      list.move_before(anchor, run);
    }
    model.insert(at, run.begin(), run.end());
    if (round % 100 == 0) expect_same_order(list, model);
  }
  expect_same_order(list, model);
}

// A random DAG (edges go up a random permutation), added edge by edge, with its transitive
// closure: reach[a][b] when a reaches b.
class RandomDag {
 public:
  static constexpr int kNodes = 400;
  using Row = std::bitset<kNodes>;

  RandomDag(unsigned seed) : rng_(seed), rank_(kNodes), reach_(kNodes) {
    for (int i = 0; i < kNodes; ++i) rank_[i] = i;
    std::shuffle(rank_.begin(), rank_.end(), rng_);
    for (int i = 0; i < kNodes; ++i) reach_[i].set(i);
  }
  // An edge of the DAG not in it yet; false when none was found.
  bool draw(int& u, int& v) {
    for (int tries = 0; tries < 100; ++tries) {
      u = static_cast<int>(rng_() % kNodes);
      v = static_cast<int>(rng_() % kNodes);
      if (rank_[u] > rank_[v]) std::swap(u, v);
      if (u != v && std::find(out_[u].begin(), out_[u].end(), v) == out_[u].end()) return true;
    }
    return false;
  }
  void add(int u, int v) {
    out_[u].push_back(v);
    in_[v].push_back(u);
    for (int x = 0; x < kNodes; ++x)
      if (reach_[x][u]) reach_[x] |= reach_[v];
  }
  bool reaches(int a, int b) const { return reach_[a][b]; }
  const LandmarkReachability::Adjacency& out() const { return out_; }
  const LandmarkReachability::Adjacency& in() const { return in_; }
  std::vector<int> topological() const {
    std::vector<int> nodes(kNodes);
    for (int i = 0; i < kNodes; ++i) nodes[i] = i;
    std::sort(nodes.begin(), nodes.end(), [&](int a, int b) { return rank_[a] < rank_[b]; });
    return nodes;
  }

 private:
  std::mt19937 rng_;
  std::vector<int> rank_;
  std::vector<Row> reach_;
  LandmarkReachability::Adjacency out_ = LandmarkReachability::Adjacency(kNodes);
  LandmarkReachability::Adjacency in_ = LandmarkReachability::Adjacency(kNodes);
};

// With 64 nodes every node is a landmark, so "reaches a landmark that reaches b" is exactly
// "reaches b": the bits chosen and then pushed edge by edge must say reachability itself.
TEST(LandmarkReachability, EveryNodeALandmarkGivesExactReachability) {
  constexpr int n = 64;
  std::mt19937 rng(5);
  std::vector<int> rank(n);
  for (int i = 0; i < n; ++i) rank[i] = i;
  std::shuffle(rank.begin(), rank.end(), rng);
  LandmarkReachability::Adjacency out(n), in(n);
  std::vector<std::bitset<n>> reach(n);
  for (int i = 0; i < n; ++i) reach[i].set(i);
  LandmarkReachability marks;
  for (int i = 0; i < n; ++i) marks.add_node();
  std::vector<int> topological(n);
  for (int i = 0; i < n; ++i) topological[rank[i]] = i;
  auto add = [&](int u, int v) {
    out[u].push_back(v);
    in[v].push_back(u);
    for (int x = 0; x < n; ++x)
      if (reach[x][u]) reach[x] |= reach[v];
  };
  // Half the edges before the landmarks are chosen, half pushed afterwards.
  for (int added = 0; added < 300;) {
    int u = static_cast<int>(rng() % n), v = static_cast<int>(rng() % n);
    if (rank[u] > rank[v]) std::swap(u, v);
    if (u == v || std::find(out[u].begin(), out[u].end(), v) != out[u].end()) continue;
    add(u, v);
    if (++added == 150) marks.choose(topological, out, in);
    if (added > 150) marks.edge_added(u, v, out, in);
  }
  int reaching = 0;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      EXPECT_EQ(marks.surely_reaches(a, b), static_cast<bool>(reach[a][b])) << a << " → " << b;
      reaching += reach[a][b];
    }
  EXPECT_GT(reaching, n * n / 8);  // a graph with paths to speak of
}

// More nodes than landmarks: a yes is always right, and the well-connected landmarks answer
// most pairs that do reach.
TEST(LandmarkReachability, AYesIsAlwaysRight) {
  RandomDag dag(9);
  LandmarkReachability marks;
  for (int i = 0; i < RandomDag::kNodes; ++i) marks.add_node();
  int u = 0, v = 0;
  for (int step = 0; step < 4000 && dag.draw(u, v); ++step) {
    dag.add(u, v);
    if (step == 1000) marks.choose(dag.topological(), dag.out(), dag.in());
    if (step > 1000) marks.edge_added(u, v, dag.out(), dag.in());
  }
  int reaching = 0, answered = 0;
  for (int a = 0; a < RandomDag::kNodes; ++a)
    for (int b = 0; b < RandomDag::kNodes; ++b) {
      if (marks.surely_reaches(a, b)) {
        ASSERT_TRUE(dag.reaches(a, b)) << a << " → " << b;
        ++answered;
      }
      reaching += dag.reaches(a, b);
    }
  EXPECT_GT(answered, reaching / 2);
}

// Edges tried as Algorithm 2 tries them (runs into one node), on a graph that grows past the
// first landmark choice (4 096 edges): each is refused exactly when its target already reaches
// its source, and the order kept stays topological.
TEST(DynamicTopologicalOrder, AgreesWithATransitiveClosure) {
  constexpr int n = 400;
  std::mt19937 rng(3);
  DynamicTopologicalOrder order;
  for (int i = 0; i < n; ++i) order.add_node();
  std::vector<std::bitset<n>> reach(n);  // reach[a][b]: a reaches b
  for (int i = 0; i < n; ++i) reach[i].set(i);
  std::vector<std::pair<int, int>> edges;
  int refused = 0;
  for (int step = 0; step < 6000; ++step) {
    const int v = static_cast<int>(rng() % n);
    for (int k = 0, run = 1 + static_cast<int>(rng() % 6); k < run; ++k) {
      const int u = static_cast<int>(rng() % n);
      const bool closes_cycle = reach[v][u];
      ASSERT_EQ(order.add_edge(u, v), !closes_cycle) << "step " << step << ": " << u << " → " << v;
      if (closes_cycle) {
        ++refused;
        continue;
      }
      if (std::find(edges.begin(), edges.end(), std::pair{u, v}) != edges.end()) continue;
      edges.emplace_back(u, v);
      for (int x = 0; x < n; ++x)
        if (reach[x][u]) reach[x] |= reach[v];
    }
    if (step % 500 == 0 || step == 5999) {
      for (const auto& [a, b] : edges) ASSERT_TRUE(order.before(a, b)) << a << " → " << b;
    }
  }
  EXPECT_GT(edges.size(), 4096u);  // the landmarks were chosen at least once
  EXPECT_GT(refused, 4000);
}

}  // namespace
}  // namespace fcswitch::tagger
