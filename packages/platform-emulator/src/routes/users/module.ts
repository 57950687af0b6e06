/** The users module: its seed and its routes. */
import { defineModule } from '../../context.js';
import type { UsersSlice } from './records.js';
import { registerUserRoutes } from './routes-users.js';
import { seedUsers } from './seed.js';

export const usersModule = defineModule<UsersSlice>({
  name: 'users',
  seed: seedUsers,
  register: registerUserRoutes,
});
