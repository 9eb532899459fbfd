#pragma once
// PABO's bounce probability (PABO §II-C, Eq. 4): zero up to the threshold θ, one when the queue
// is full, super-linear in between, and lower for a packet already bounced n_p times:
//
//   P(u, n_p) = (e^{λ(θ−u)/(n_p+1)} − 1) / (e^{λ(θ−1)/(n_p+1)} − 1)   for θ < u ≤ 1
//
// λ = 0 makes that 0/0; its limit, (u − θ)/(1 − θ), is what the paper's Fig. 9(b) plots at 0.
// Pure: no state, no clock.

#include <cstdint>

namespace fcswitch::pabo {

class BounceProbability {
 public:
  // θ ∈ [0, 1), λ ≥ 0 (the config reader refuses the rest).
  BounceProbability(double theta, double lambda) : theta_(theta), lambda_(lambda) {}

  double operator()(double utilisation, uint32_t bounces) const;

  double theta() const { return theta_; }
  double lambda() const { return lambda_; }

 private:
  double theta_;
  double lambda_;
};

}  // namespace fcswitch::pabo
