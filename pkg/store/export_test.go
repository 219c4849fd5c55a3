package store

// IndexLockID is the advisory lock IndexWorkspaces and IndexGrownWorkspaces hold while they build, for tests
// that play another replica building.
const IndexLockID = indexLockID
