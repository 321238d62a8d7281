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
 * Everything the pipeline's stages are built with, parsed once by the application (each stage's settings group in
 * app/config parses its part): one immutable value, built with {@link #builder()}, each stage's defaults where not set.
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
    /** Every stage with its defaults (no budgets: the budget stage is not built). */
    public static PipelineSettings defaults() {
        return builder().build();
    }

    /** A builder holding every stage's defaults; set only what differs. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these settings, to change a part of them. */
    public Builder toBuilder() {
        return new Builder().retry(retry).scheduler(scheduler).taskRetention(taskRetention).analytics(analytics)
                .replay(replay).input(input).pricing(pricing).providers(providers).budgets(budgets);
    }

    /** Builds {@link PipelineSettings}; a stage not set keeps its defaults. */
    public static final class Builder {
        private RetryPolicy retry = RetryPolicy.defaults();
        private SchedulerSettings scheduler = SchedulerSettings.defaults();
        private TaskRetention taskRetention = TaskRetention.defaults();
        private AnalyticsSettings analytics = AnalyticsSettings.defaults();
        private ReplayLimits replay = ReplayLimits.defaults();
        private InputLimits input = InputLimits.defaults();
        private PricingSettings pricing = PricingSettings.defaults();
        private ProviderGateSettings providers = ProviderGateSettings.defaults();
        private BudgetSettings budgets = BudgetSettings.none();

        private Builder() {
        }

        public Builder retry(RetryPolicy retry) {
            this.retry = retry;
            return this;
        }

        public Builder scheduler(SchedulerSettings scheduler) {
            this.scheduler = scheduler;
            return this;
        }

        public Builder taskRetention(TaskRetention taskRetention) {
            this.taskRetention = taskRetention;
            return this;
        }

        public Builder analytics(AnalyticsSettings analytics) {
            this.analytics = analytics;
            return this;
        }

        public Builder replay(ReplayLimits replay) {
            this.replay = replay;
            return this;
        }

        public Builder input(InputLimits input) {
            this.input = input;
            return this;
        }

        public Builder pricing(PricingSettings pricing) {
            this.pricing = pricing;
            return this;
        }

        public Builder providers(ProviderGateSettings providers) {
            this.providers = providers;
            return this;
        }

        public Builder budgets(BudgetSettings budgets) {
            this.budgets = budgets;
            return this;
        }

        public PipelineSettings build() {
            return new PipelineSettings(retry, scheduler, taskRetention, analytics, replay, input, pricing, providers, budgets);
        }
    }
}
