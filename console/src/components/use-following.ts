import { useState, type Dispatch, type SetStateAction } from 'react';

/**
 * A value the owner edits that starts over from `source` whenever `source` changes (a save, a
 * refetch, another tab). It is reset while rendering, React's way of adjusting state to new
 * input, not in an effect, which would paint the stale value once and render twice.
 */
export function useFollowing<T>(source: T, same: (a: T, b: T) => boolean = Object.is): [T, Dispatch<SetStateAction<T>>] {
  const [value, setValue] = useState(source);
  const [followed, setFollowed] = useState(source);
  if (!same(followed, source)) {
    setFollowed(source);
    setValue(source);
  }
  return [value, setValue];
}
