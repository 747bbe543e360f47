// Runs a jest project with every kernel of execute() on the worker pool (read when deferred-array loads).
process.env.DEFERRED_ARRAY_INLINE_THRESHOLD = '0';
