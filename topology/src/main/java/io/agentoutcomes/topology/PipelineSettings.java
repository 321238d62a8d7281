package io.agentoutcomes.topology;

import io.agentoutcomes.topology.analytics.AnalyticsSettings;
import io.agentoutcomes.topology.budget.BudgetSettings;
import io.agentoutcomes.topology.classify.RetryPolicy;
import io.agentoutcomes.topology.classify.TaskRetention;
import io.agentoutcomes.topology.ingest.InputLimits;
import io.agentoutcomes.topology.pricing.PricingSettings;
import io.agentoutcomes.topology.provider.ProviderGateSettings;
import io.agentoutcomes.topology.replay.ReplayLimits;
import io.agentoutcomes.topology.schedule.SchedulerSettings;

/**
 * Everything the pipeline's stages are built with, parsed once by the application: one immutable value, with
 * withers for the tests and the bench that change one part.
 *
 * @param retry         classification policies, backoff, delay tiers
 * @param scheduler     how often and how much the retry scheduler checks for due retries
 * @param taskRetention how long classification remembers a task
 * @param analytics     the analytics stage's windows, flushes and grace
 * @param replay        the bounds of a job's replay state
 * @param input         the bounds of an input record
 * @param pricing       the price table and the tolerance of a reported cost
 * @param providers     the provider gate: pacing by advertised budgets, circuits per provider
 * @param budgets       the declared cost budgets (none: the budget stage is not built)
 */
public record PipelineSettings(RetryPolicy retry, SchedulerSettings scheduler, TaskRetention taskRetention, AnalyticsSettings analytics,
                               ReplayLimits replay, InputLimits input, PricingSettings pricing,
                               ProviderGateSettings providers, BudgetSettings budgets) {
    public static PipelineSettings defaults() {
        return new PipelineSettings(RetryPolicy.defaults(), SchedulerSettings.defaults(), TaskRetention.defaults(), AnalyticsSettings.defaults(),
                ReplayLimits.defaults(), InputLimits.defaults(), PricingSettings.defaults(),
                ProviderGateSettings.defaults(), BudgetSettings.none());
    }

    public PipelineSettings withRetry(RetryPolicy retry) {
        return new PipelineSettings(retry, scheduler, taskRetention, analytics, replay, input, pricing, providers, budgets);
    }

    public PipelineSettings withScheduler(SchedulerSettings scheduler) {
        return new PipelineSettings(retry, scheduler, taskRetention, analytics, replay, input, pricing, providers, budgets);
    }

    public PipelineSettings withTaskRetention(TaskRetention taskRetention) {
        return new PipelineSettings(retry, scheduler, taskRetention, analytics, replay, input, pricing, providers, budgets);
    }

    public PipelineSettings withAnalytics(AnalyticsSettings analytics) {
        return new PipelineSettings(retry, scheduler, taskRetention, analytics, replay, input, pricing, providers, budgets);
    }

    public PipelineSettings withReplay(ReplayLimits replay) {
        return new PipelineSettings(retry, scheduler, taskRetention, analytics, replay, input, pricing, providers, budgets);
    }

    public PipelineSettings withInput(InputLimits input) {
        return new PipelineSettings(retry, scheduler, taskRetention, analytics, replay, input, pricing, providers, budgets);
    }

    public PipelineSettings withPricing(PricingSettings pricing) {
        return new PipelineSettings(retry, scheduler, taskRetention, analytics, replay, input, pricing, providers, budgets);
    }

    public PipelineSettings withProviders(ProviderGateSettings providers) {
        return new PipelineSettings(retry, scheduler, taskRetention, analytics, replay, input, pricing, providers, budgets);
    }

    public PipelineSettings withBudgets(BudgetSettings budgets) {
        return new PipelineSettings(retry, scheduler, taskRetention, analytics, replay, input, pricing, providers, budgets);
    }
}
