DROP TABLE IF EXISTS websub_subscriptions;
