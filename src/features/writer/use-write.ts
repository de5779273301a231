import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { WriteRequest } from '../../../contract/write.ts';
import { streamWrite } from '../../api/writes/write-stream.ts';
import { writeKeys } from '../../api/writes/keys.ts';

/** One write at a time: the text as it streams in, then the final answer. */
export function useWrite() {
  const queryClient = useQueryClient();
  const [streamed, setStreamed] = useState('');
  const abort = useRef<AbortController | null>(null);
  // Leaving the page stops the stream rather than generating text nobody reads.
  useEffect(() => () => abort.current?.abort(), []);
  const mutation = useMutation({
    mutationFn: (body: WriteRequest) => {
      abort.current?.abort();
      const controller = new AbortController();
      abort.current = controller;
      setStreamed('');
      return streamWrite(body, (piece) => setStreamed((t) => t + piece), controller.signal);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: writeKeys.all }),
  });
  return {
    ...mutation,
    streamed,
    stop: () => abort.current?.abort(),
  };
}
