// Runs a jest project on the reference evaluator (read when deferred-array loads).
process.env.DEFERRED_ARRAY_BACKEND = 'reference';
