// A readable error right where it happened, announced to screen readers.
export function ErrorNote({ message, onRetry, id }: { message: string | null | undefined; onRetry?: () => void; id?: string }) {
  if (!message) return null;
  return (
    <div className="error-note" role="alert" id={id}>
      <span>{message}</span>
      {onRetry && (
        <button type="button" className="link" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
